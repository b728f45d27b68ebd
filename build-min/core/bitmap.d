build-min/core/bitmap.o: core/bitmap.c core/bitmap.h
core/bitmap.h:
