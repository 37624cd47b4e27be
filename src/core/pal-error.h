/* pal-error.h: the PAL_ERROR domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PAL_ERROR (pal_error_quark ())

typedef enum
{
  PAL_ERROR_FAILED,
  PAL_ERROR_INVALID,      /* a value a person entered or a stored value is invalid */
  PAL_ERROR_NOT_FOUND,    /* an agent profile, server or session does not exist */
  PAL_ERROR_EXISTS,       /* a name is already taken */
  PAL_ERROR_NOT_SUPPORTED,
  PAL_ERROR_TIMEOUT,
  PAL_ERROR_PROTOCOL,     /* a peer (MCP server) broke its protocol */
  PAL_ERROR_DAMAGED,      /* a stored file cannot be read: it was moved aside */
  PAL_ERROR_LOCKED,       /* a stored file is in use by another program */
} PalError;

GQuark pal_error_quark (void);

G_END_DECLS
