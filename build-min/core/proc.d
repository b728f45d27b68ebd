build-min/core/proc.o: core/proc.c core/proc.h
core/proc.h:
