build-min/db/schema.o: db/schema.c db/schema.h db/db.h db/../core/topo.h \
 db/../core/bitmap.h db/../core/sysfs.h db/../core/weights.h
db/schema.h:
db/db.h:
db/../core/topo.h:
db/../core/bitmap.h:
db/../core/sysfs.h:
db/../core/weights.h:
