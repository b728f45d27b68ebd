build-min/core/journal.o: core/journal.c core/journal.h core/apply.h \
 core/sysfs.h core/topo.h core/bitmap.h core/weights.h core/wi.h \
 core/error.h core/parse.h core/proc.h
core/journal.h:
core/apply.h:
core/sysfs.h:
core/topo.h:
core/bitmap.h:
core/weights.h:
core/wi.h:
core/error.h:
core/parse.h:
core/proc.h:
