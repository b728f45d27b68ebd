build-clang/tests/test-parse: tests/unit/test-parse.c tests/unit/test.h \
  tests/unit/../../core/bitmap.h tests/unit/../../core/parse.h

tests/unit/test.h:

tests/unit/../../core/bitmap.h:

tests/unit/../../core/parse.h:
