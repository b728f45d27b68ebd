build-min/db/db.o: db/db.c db/db.h db/../core/topo.h db/../core/bitmap.h \
 db/../core/sysfs.h db/../core/weights.h db/../core/error.h \
 db/../core/proc.h db/schema.h
db/db.h:
db/../core/topo.h:
db/../core/bitmap.h:
db/../core/sysfs.h:
db/../core/weights.h:
db/../core/error.h:
db/../core/proc.h:
db/schema.h:
