/* pal-command-check.h: a command checked as the person types it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* What is known of the command last given to pal_command_check_update(). */
typedef enum
{
  PAL_COMMAND_STATUS_EMPTY,          /* nothing but white space */
  PAL_COMMAND_STATUS_RELATIVE,       /* a relative path with a slash: not looked up */
  PAL_COMMAND_STATUS_LOOKING,        /* being looked for */
  PAL_COMMAND_STATUS_NOT_FOUND,      /* a program name not in PATH */
  PAL_COMMAND_STATUS_NOT_EXECUTABLE, /* found, but not an executable file here */
  PAL_COMMAND_STATUS_FOUND,          /* an executable program */
} PalCommandStatus;

/* Whether an editor refuses a command in @status (its message is the
 * error): empty, a relative path, or a program not found in PATH. */
gboolean pal_command_status_is_error (PalCommandStatus status);

#define PAL_TYPE_COMMAND_CHECK (pal_command_check_get_type ())

G_DECLARE_FINAL_TYPE (PalCommandCheck, pal_command_check, PAL, COMMAND_CHECK, GObject)

PalCommandCheck  *pal_command_check_new            (void);
PalCommandStatus  pal_command_check_update         (PalCommandCheck  *self,
                                                    const char       *command,
                                                    char            **out_message);
const char       *pal_command_check_get_resolved   (PalCommandCheck  *self);
void              pal_command_check_start_now      (PalCommandCheck  *self);
void              pal_command_check_cancel         (PalCommandCheck  *self);
void              pal_command_check_adopt_resolved (PalCommandCheck  *self);

G_END_DECLS
