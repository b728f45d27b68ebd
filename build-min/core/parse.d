build-min/core/parse.o: core/parse.c core/parse.h core/bitmap.h
core/parse.h:
core/bitmap.h:
