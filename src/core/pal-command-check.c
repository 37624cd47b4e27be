/* pal-command-check.c: a command checked as the person types it
 *
 * The agent and MCP server editors both check the program a command runs
 * while it is typed, and say the same things about it. Finding it means
 * looking at files, which is not done on the main thread: a worker thread
 * does it (pal_program_lookup_async()) a moment after the last change, a
 * newer command or pal_command_check_cancel() cancels the lookup running,
 * and until the answer is in the command is "being looked for". Both
 * editors make the same of a status (pal_command_status_is_error()): a
 * command they cannot find keeps Save off in each, the place found is
 * shown, and a file found that is not executable here is only a warning
 * (it may be one where the program runs, in another sandbox).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "pal-command-check.h"
#include "pal-program-lookup.h"
#include "pal-store-private.h"

/* how long the command must stay the same before it is looked up */
#define LOOKUP_DELAY_MS 150

struct _PalCommandCheck
{
  GObject parent_instance;

  /* the lookup of the command: what it is (or was) for, and its answer */
  char *lookup_command;
  guint lookup_source;
  GCancellable *lookup_cancellable;
  gboolean looked_up;
  char *resolved;
  gboolean executable;
};

G_DEFINE_FINAL_TYPE (PalCommandCheck, pal_command_check, G_TYPE_OBJECT)

gboolean
pal_command_status_is_error (PalCommandStatus status)
{
  return status == PAL_COMMAND_STATUS_EMPTY ||
         status == PAL_COMMAND_STATUS_RELATIVE ||
         status == PAL_COMMAND_STATUS_NOT_FOUND;
}

enum {
  LOOKED_UP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
lookup_done_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PalCommandCheck) self = user_data;
  g_autofree char *resolved = NULL;
  g_autoptr(GError) error = NULL;
  gboolean executable = FALSE;

  /* a newer lookup, or closing, cancelled this one: its answer is stale */
  if (!pal_program_lookup_finish (result, &resolved, &executable, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_debug ("Could not look for “%s”: %s", self->lookup_command, error->message);
    }

  g_clear_object (&self->lookup_cancellable);
  g_free (self->resolved);
  self->resolved = g_steal_pointer (&resolved);
  self->executable = executable;
  self->looked_up = TRUE;
  g_signal_emit (self, signals[LOOKED_UP], 0);
}

static void
start_lookup (PalCommandCheck *self)
{
  pal_command_check_cancel (self);
  self->lookup_cancellable = g_cancellable_new ();
  pal_program_lookup_async (self->lookup_command, self->lookup_cancellable,
                            lookup_done_cb, g_object_ref (self));
}

static gboolean
lookup_timeout_cb (gpointer user_data)
{
  PalCommandCheck *self = user_data;

  self->lookup_source = 0;
  start_lookup (self);
  return G_SOURCE_REMOVE;
}

/* Looks @command up a moment from now, unless that is already done or under
 * way; NULL when there is nothing to look up. */
static void
look_up_later (PalCommandCheck *self,
               const char      *command)
{
  if (self->lookup_command != NULL && g_strcmp0 (command, self->lookup_command) == 0)
    return;

  pal_command_check_cancel (self);
  g_clear_pointer (&self->resolved, g_free);
  self->executable = FALSE;
  self->looked_up = FALSE;
  g_free (self->lookup_command);
  self->lookup_command = g_strdup (command);

  if (command != NULL)
    self->lookup_source = g_timeout_add (LOOKUP_DELAY_MS, lookup_timeout_cb, self);
}

static void
pal_command_check_dispose (GObject *object)
{
  PalCommandCheck *self = PAL_COMMAND_CHECK (object);

  pal_command_check_cancel (self);

  G_OBJECT_CLASS (pal_command_check_parent_class)->dispose (object);
}

static void
pal_command_check_finalize (GObject *object)
{
  PalCommandCheck *self = PAL_COMMAND_CHECK (object);

  g_free (self->lookup_command);
  g_free (self->resolved);

  G_OBJECT_CLASS (pal_command_check_parent_class)->finalize (object);
}

static void
pal_command_check_class_init (PalCommandCheckClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_command_check_dispose;
  object_class->finalize = pal_command_check_finalize;

  /**
   * PalCommandCheck::looked-up:
   *
   * The answer for the command being looked for came in: ask
   * pal_command_check_update() again.
   */
  signals[LOOKED_UP] =
    g_signal_new ("looked-up",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
pal_command_check_init (PalCommandCheck *self)
{
}

PalCommandCheck *
pal_command_check_new (void)
{
  return g_object_new (PAL_TYPE_COMMAND_CHECK, NULL);
}

/**
 * pal_command_check_update:
 * @self: a #PalCommandCheck
 * @command: the command as typed
 * @out_message: (out) (transfer full) (optional) (nullable): what to tell the
 *   person about it, or %NULL when there is nothing to say (a program given
 *   by its absolute path, found where it was said to be)
 *
 * Says what is known of @command, and looks it up a moment from now when
 * that is not done or under way yet: #PalCommandCheck::looked-up comes with
 * the answer. A blank command or a relative path with a slash is not looked
 * up (Palaver's working directory means nothing to the person).
 *
 * Returns: what is known of @command
 */
PalCommandStatus
pal_command_check_update (PalCommandCheck  *self,
                          const char       *command,
                          char            **out_message)
{
  g_autofree char *message = NULL;
  PalCommandStatus status;

  g_return_val_if_fail (PAL_IS_COMMAND_CHECK (self), PAL_COMMAND_STATUS_EMPTY);
  g_return_val_if_fail (command != NULL, PAL_COMMAND_STATUS_EMPTY);

  if (_pal_str_is_blank (command))
    {
      look_up_later (self, NULL);
      status = PAL_COMMAND_STATUS_EMPTY;
      message = g_strdup (_("Enter the program to start"));
    }
  else if (!g_path_is_absolute (command) && strchr (command, '/') != NULL)
    {
      look_up_later (self, NULL);
      status = PAL_COMMAND_STATUS_RELATIVE;
      message = g_strdup_printf (_("“%s” is a relative path: enter an absolute path, or a "
                                   "program name to look up in PATH"), command);
    }
  else
    {
      look_up_later (self, command);
      if (!self->looked_up)
        {
          status = PAL_COMMAND_STATUS_LOOKING;
          message = g_strdup (_("Looking for the program…"));
        }
      else if (self->resolved == NULL)
        {
          status = PAL_COMMAND_STATUS_NOT_FOUND;
          message = g_strdup_printf (_("“%s” was not found in PATH"), command);
        }
      else if (!self->executable)
        {
          status = PAL_COMMAND_STATUS_NOT_EXECUTABLE;
          message = g_strdup_printf (_("“%s” is not an executable program on this computer"),
                                     self->resolved);
        }
      else
        {
          status = PAL_COMMAND_STATUS_FOUND;
          if (g_strcmp0 (self->resolved, command) != 0)
            {
              /* TRANSLATORS: %s is the absolute path of the program found in PATH */
              message = g_strdup_printf (_("Found at %s"), self->resolved);
            }
        }
    }

  if (out_message != NULL)
    *out_message = g_steal_pointer (&message);
  return status;
}

/**
 * pal_command_check_get_resolved:
 * @self: a #PalCommandCheck
 *
 * Returns: (nullable): the absolute path of the program the command runs,
 *   as looked up; %NULL when not found, or not looked up (yet)
 */
const char *
pal_command_check_get_resolved (PalCommandCheck *self)
{
  g_return_val_if_fail (PAL_IS_COMMAND_CHECK (self), NULL);
  return self->resolved;
}

/**
 * pal_command_check_start_now:
 * @self: a #PalCommandCheck
 *
 * Starts the lookup waiting for its moment at once: for a command that was
 * not typed (the one of a stored item opened for editing).
 */
void
pal_command_check_start_now (PalCommandCheck *self)
{
  g_return_if_fail (PAL_IS_COMMAND_CHECK (self));

  if (self->lookup_source != 0)
    start_lookup (self);
}

/**
 * pal_command_check_cancel:
 * @self: a #PalCommandCheck
 *
 * Cancels the lookup waiting or running; no answer comes for it, and the
 * same command is not looked up again.
 */
void
pal_command_check_cancel (PalCommandCheck *self)
{
  g_return_if_fail (PAL_IS_COMMAND_CHECK (self));

  g_clear_handle_id (&self->lookup_source, g_source_remove);
  if (self->lookup_cancellable != NULL)
    g_cancellable_cancel (self->lookup_cancellable);
  g_clear_object (&self->lookup_cancellable);
}

/**
 * pal_command_check_adopt_resolved:
 * @self: a #PalCommandCheck
 *
 * The command is about to be replaced by the path it was resolved to: that
 * absolute path resolves to itself, so the answer holds for it and it is
 * not looked up again.
 */
void
pal_command_check_adopt_resolved (PalCommandCheck *self)
{
  g_return_if_fail (PAL_IS_COMMAND_CHECK (self));

  if (self->resolved == NULL)
    return;

  g_free (self->lookup_command);
  self->lookup_command = g_strdup (self->resolved);
}
