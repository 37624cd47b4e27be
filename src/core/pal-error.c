/* pal-error.c: the PAL_ERROR domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-error.h"

G_DEFINE_QUARK (pal-error-quark, pal_error)
