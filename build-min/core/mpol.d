build-min/core/mpol.o: core/mpol.c core/mpol.h core/bitmap.h core/error.h
core/mpol.h:
core/bitmap.h:
core/error.h:
