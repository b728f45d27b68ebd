build-clang/tests/test-interleave: tests/unit/test-interleave.c \
  tests/unit/test.h tests/unit/../../core/error.h \
  tests/unit/../../core/interleave.h tests/unit/../../core/bitmap.h \
  tests/unit/../../core/topo.h tests/unit/../../core/sysfs.h \
  tests/unit/../../core/weights.h

tests/unit/test.h:

tests/unit/../../core/error.h:

tests/unit/../../core/interleave.h:

tests/unit/../../core/bitmap.h:

tests/unit/../../core/topo.h:

tests/unit/../../core/sysfs.h:

tests/unit/../../core/weights.h:
