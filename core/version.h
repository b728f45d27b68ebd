/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The version of the JSON vocabulary (docs/json.md) that every command and
 * tiertop print as schema_version. Raise it when a field is renamed,
 * retyped or changes meaning; adding a field does not.
 */
#ifndef TT_VERSION_H
#define TT_VERSION_H

#define TT_JSON_SCHEMA_VERSION 2

#endif
