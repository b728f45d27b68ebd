build-clang/tests/test-wi: tests/unit/test-wi.c tests/unit/test.h \
  tests/unit/../../core/error.h tests/unit/../../core/wi.h \
  tests/unit/../../core/sysfs.h tests/unit/../../core/topo.h \
  tests/unit/../../core/bitmap.h tests/unit/../../core/weights.h

tests/unit/test.h:

tests/unit/../../core/error.h:

tests/unit/../../core/wi.h:

tests/unit/../../core/sysfs.h:

tests/unit/../../core/topo.h:

tests/unit/../../core/bitmap.h:

tests/unit/../../core/weights.h:
