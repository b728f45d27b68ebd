build-min/core/apply.o: core/apply.c core/apply.h core/sysfs.h \
 core/topo.h core/bitmap.h core/weights.h core/wi.h core/error.h \
 core/journal.h core/parse.h core/proc.h
core/apply.h:
core/sysfs.h:
core/topo.h:
core/bitmap.h:
core/weights.h:
core/wi.h:
core/error.h:
core/journal.h:
core/parse.h:
core/proc.h:
