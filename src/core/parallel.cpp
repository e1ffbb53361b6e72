#include "core/parallel.h"

#include <omp.h>

namespace pabd {

int resolve_thread_count(int requested) {
  return requested > 0 ? requested : omp_get_max_threads();
}

ThreadSlot this_thread_slot() { return {omp_get_thread_num(), omp_get_num_threads()}; }

}  // namespace pabd
