build-clang/cli/cli.o: cli/cli.c cli/cli.h cli/../core/error.h \
  cli/../core/sysfs.h cli/../core/parse.h

cli/cli.h:

cli/../core/error.h:

cli/../core/sysfs.h:

cli/../core/parse.h:
