#include "core/parallel.h"

#include <omp.h>

namespace pabd {

int resolve_thread_count(int requested) {
  return requested > 0 ? requested : omp_get_max_threads();
}

int this_thread_index() { return omp_get_thread_num(); }

int this_team_size() { return omp_get_num_threads(); }

}  // namespace pabd
