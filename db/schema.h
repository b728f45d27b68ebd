/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to db/: the forward migrations, tt_db_migrations[i] taking a
 * database from user_version i to i + 1. */
#ifndef TT_DB_SCHEMA_H
#define TT_DB_SCHEMA_H

extern const char *const tt_db_migrations[];
extern const int tt_db_nmigrations;

#endif
