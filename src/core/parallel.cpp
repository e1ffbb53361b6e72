#include "core/parallel.h"

#include <omp.h>

namespace pabd {

int resolve_thread_count(int requested) {
  return requested > 0 ? requested : omp_get_max_threads();
}

}  // namespace pabd
