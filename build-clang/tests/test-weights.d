build-clang/tests/test-weights: tests/unit/test-weights.c \
  tests/unit/test.h tests/unit/../../core/error.h \
  tests/unit/../../core/weights.h tests/unit/../../core/bitmap.h

tests/unit/test.h:

tests/unit/../../core/error.h:

tests/unit/../../core/weights.h:

tests/unit/../../core/bitmap.h:
