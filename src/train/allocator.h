// The allocator setting a process that trains should make once, at start.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace train {

// A training step frees and reallocates a few MiB of matrices. By default glibc maps the
// larger ones afresh and hands freed memory back to the system after every step, then
// page-faults it in again: two thirds of a native step. Keeping it costs a few MiB of address
// space. Elsewhere (WebAssembly's allocator never returns memory) there is nothing to do.
inline void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

}  // namespace train
