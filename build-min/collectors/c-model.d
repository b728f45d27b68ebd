build-min/collectors/c-model.o: collectors/c-model.c \
 collectors/collector.h collectors/../core/sysfs.h \
 collectors/../core/topo.h collectors/../core/bitmap.h \
 collectors/../core/sysfs.h collectors/../core/weights.h \
 collectors/../core/error.h
collectors/collector.h:
collectors/../core/sysfs.h:
collectors/../core/topo.h:
collectors/../core/bitmap.h:
collectors/../core/sysfs.h:
collectors/../core/weights.h:
collectors/../core/error.h:
