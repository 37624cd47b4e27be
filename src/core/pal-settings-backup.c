/* pal-settings-backup.c: what a settings key really holds, and a copy of it
 *
 * GSettings hides a stored value it cannot read: a value of another type
 * (written by hand, or by another program), or one whose text does not parse
 * (a keyfile edited by hand: a "\u0000" in one string spoils the whole key),
 * reads as the schema's default, and nothing says so. A list that writes the
 * key back then overwrites what the person made.
 *
 * These functions tell such a key from one that is simply not set, and copy
 * the stored text to a file of its own before anything replaces it:
 *
 *   $XDG_DATA_HOME/palaver/settings-backup/KEY-YYYYMMDD-HHMMSS.txt
 *
 * Which backend it is decides how:
 *
 * - dconf and the memory backend hand out any stored value whatever its type
 *   (the type is checked above them, in GSettings), so asking the backend
 *   tells an unreadable value from a missing one at once;
 * - the keyfile backend (Flatpak, GSETTINGS_BACKEND=keyfile) parses the text
 *   and drops what does not parse, so only its file can tell: it is read in a
 *   thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "pal-store-private.h"

struct _PalKeyCheck
{
  PalKeyState state;
  char *key;
  /* the stored text to copy, and why it cannot be read (NULL: it can) */
  char *text;
  char *reason;
  char *folder;
  char *backup_path;

  /* PAL_KEY_UNKNOWN: the keyfile that holds it */
  char *filename;
  char *root_path;
  char *root_group;
  char *path;
  GVariantType *type;
};

/**
 * _pal_settings_backup_folder:
 *
 * Returns: (transfer full): where copies of stored values go
 */
char *
_pal_settings_backup_folder (void)
{
  return g_build_filename (g_get_user_data_dir (), "palaver", "settings-backup", NULL);
}

/**
 * _pal_settings_in_one_process:
 * @settings: settings
 *
 * Returns: whether every writer of @settings is in this process, on one
 *   backend (GLib's memory backend): each reads every write at once, and
 *   none can write a copy older than the last write (see
 *   pal-stored-list-merge.c)
 */
gboolean
_pal_settings_in_one_process (GSettings *settings)
{
  g_autoptr(GSettingsBackend) backend = NULL;

  g_object_get (settings, "backend", &backend, NULL);
  return backend != NULL && g_strcmp0 (G_OBJECT_TYPE_NAME (backend), "GMemorySettingsBackend") == 0;
}

static gboolean
is_keyfile_backend (GSettingsBackend *backend)
{
  GType keyfile = g_type_from_name ("GKeyfileSettingsBackend");

  return keyfile != 0 && G_TYPE_CHECK_INSTANCE_TYPE (backend, keyfile);
}

static PalKeyCheck *
check_new (const char *key)
{
  PalKeyCheck *check = g_new0 (PalKeyCheck, 1);

  check->key = g_strdup (key);
  check->folder = _pal_settings_backup_folder ();
  return check;
}

/**
 * _pal_key_check_new:
 * @settings: the settings
 * @key: one of their keys, which GSettings reads as @settings shows it
 *
 * Looks at what the backend of @settings stores under @key. The state is
 * %PAL_KEY_UNKNOWN when only a file can tell (_pal_key_check_run() reads it).
 *
 * Returns: (transfer full): the check
 */
PalKeyCheck *
_pal_key_check_new (GSettings  *settings,
                    const char *key)
{
  PalKeyCheck *check = check_new (key);
  g_autoptr(GVariant) user_value = g_settings_get_user_value (settings, key);
  g_autoptr(GSettingsBackend) backend = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) schema_key = NULL;
  g_autofree char *settings_path = NULL;
  g_autoptr(GVariant) stored = NULL;
  const GVariantType *type;

  /* what GSettings reads it could read */
  check->state = PAL_KEY_READABLE;
  if (user_value != NULL)
    return check;

  g_object_get (settings,
                "backend", &backend,
                "path", &settings_path,
                "settings-schema", &schema,
                NULL);
  schema_key = g_settings_schema_get_key (schema, key);
  type = g_settings_schema_key_get_value_type (schema_key);
  check->path = g_strconcat (settings_path, key, NULL);

  if (is_keyfile_backend (backend))
    {
      check->state = PAL_KEY_UNKNOWN;
      check->type = g_variant_type_copy (type);
      g_object_get (backend,
                    "filename", &check->filename,
                    "root-path", &check->root_path,
                    "root-group", &check->root_group,
                    NULL);
      return check;
    }

  /* Any other backend hands out what it stores, of any type (dconf and
   * the memory backend do); NULL is a key not set. */
  stored = G_SETTINGS_BACKEND_GET_CLASS (backend)->read (backend, check->path,
                                                         G_VARIANT_TYPE_ANY, FALSE);
  if (stored == NULL)
    return check;
  g_variant_take_ref (stored);
  if (g_variant_is_of_type (stored, type))
    /* readable after all: out of the schema's range, or just written */
    return check;

  check->state = PAL_KEY_UNREADABLE;
  check->text = g_variant_print (stored, TRUE);
  check->reason = g_strdup_printf (_("it has the type “%s” instead of “%s”"),
                                   g_variant_get_type_string (stored),
                                   g_variant_type_peek_string (type));
  return check;
}

/**
 * _pal_key_check_new_for_text:
 * @key: a settings key
 * @text: what it held, as text
 *
 * A check of a value that was read, to be copied before it is replaced (an
 * entry lost a member that could not be read).
 *
 * Returns: (transfer full): a check in the state %PAL_KEY_UNREADABLE
 *   without a reason
 */
PalKeyCheck *
_pal_key_check_new_for_text (const char *key,
                             const char *text)
{
  PalKeyCheck *check = check_new (key);

  check->state = PAL_KEY_UNREADABLE;
  check->text = g_strdup (text);
  return check;
}

void
_pal_key_check_free (PalKeyCheck *check)
{
  if (check == NULL)
    return;

  g_free (check->key);
  g_free (check->text);
  g_free (check->reason);
  g_free (check->folder);
  g_free (check->backup_path);
  g_free (check->filename);
  g_free (check->root_path);
  g_free (check->root_group);
  g_free (check->path);
  g_clear_pointer (&check->type, g_variant_type_free);
  g_free (check);
}

PalKeyState
_pal_key_check_get_state (PalKeyCheck *check)
{
  return check->state;
}

/* Returns: (nullable): why the stored value cannot be read, translated */
const char *
_pal_key_check_get_reason (PalKeyCheck *check)
{
  return check->reason;
}

/* Returns: (nullable): the copy, once _pal_key_check_run() made it */
const char *
_pal_key_check_get_backup_path (PalKeyCheck *check)
{
  return check->backup_path;
}

/* --- in any thread --- */

/* The group and name of @path in the keyfile, as the keyfile backend
 * names them; FALSE when it keeps no such key. */
static gboolean
keyfile_location (PalKeyCheck  *check,
                  char        **group,
                  char        **name)
{
  const char *rest;
  const char *slash;

  if (check->root_path == NULL || !g_str_has_prefix (check->path, check->root_path))
    return FALSE;

  rest = check->path + strlen (check->root_path);
  slash = strrchr (rest, '/');
  if (slash == NULL)
    {
      if (check->root_group == NULL)
        return FALSE;
      *group = g_strdup (check->root_group);
      *name = g_strdup (rest);
    }
  else
    {
      *group = g_strndup (rest, slash - rest);
      *name = g_strdup (slash + 1);
    }

  return TRUE;
}

/* Reads the keyfile: what it stores under the key, unless it parses. */
static gboolean
inspect_keyfile (PalKeyCheck  *check,
                 GError      **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GVariant) value = NULL;
  g_autofree char *group = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  check->state = PAL_KEY_READABLE;

  if (!keyfile_location (check, &group, &name))
    return TRUE;

  if (!g_key_file_load_from_file (keyfile, check->filename, G_KEY_FILE_NONE, &local_error))
    {
      /* no file, no value */
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  text = g_key_file_get_value (keyfile, group, name, NULL);
  if (text == NULL)
    return TRUE;

  value = g_variant_parse (check->type, text, NULL, NULL, &local_error);
  if (value != NULL)
    /* it reads: GSettings read it before it was written */
    return TRUE;

  check->state = PAL_KEY_UNREADABLE;
  check->text = g_steal_pointer (&text);
  check->reason = g_strdup_printf (_("it does not parse (%s)"), local_error->message);
  return TRUE;
}

/* The copy of @text in @folder made earlier, if there is one. */
static char *
find_copy (const char *folder,
           const char *key,
           const char *text)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  g_autofree char *prefix = g_strconcat (key, "-", NULL);
  gsize length = strlen (text);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      gsize contents_length = 0;

      if (!g_str_has_prefix (name, prefix) || !g_str_has_suffix (name, ".txt"))
        continue;

      path = g_build_filename (folder, name, NULL);
      if (g_file_get_contents (path, &contents, &contents_length, NULL) &&
          contents_length == length && memcmp (contents, text, length) == 0)
        return g_steal_pointer (&path);
    }

  return NULL;
}

static gboolean
back_up (PalKeyCheck  *check,
         GError      **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *text = g_strconcat (check->text, "\n", NULL);
  g_autofree char *path = NULL;

  if (g_mkdir_with_parents (check->folder, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", check->folder, g_strerror (saved_errno));
      return FALSE;
    }

  /* the same value as last time: the copy is there already */
  path = find_copy (check->folder, check->key, text);
  for (guint n = 1; path == NULL; n++)
    {
      g_autofree char *name = n == 1 ? g_strdup_printf ("%s-%s.txt", check->key, stamp)
                                     : g_strdup_printf ("%s-%s-%u.txt", check->key, stamp, n);
      g_autofree char *candidate = g_build_filename (check->folder, name, NULL);

      if (g_file_test (candidate, G_FILE_TEST_EXISTS))
        continue;

      /* it may hold values the person considers private */
      if (!g_file_set_contents_full (candidate, text, -1,
                                     G_FILE_SET_CONTENTS_CONSISTENT |
                                     G_FILE_SET_CONTENTS_DURABLE,
                                     0600, error))
        return FALSE;
      path = g_steal_pointer (&candidate);
    }

  check->backup_path = g_steal_pointer (&path);
  return TRUE;
}

/**
 * _pal_key_check_run:
 * @check: a check
 * @error: an error of the file system
 *
 * Blocks: reads the keyfile of a check in the state %PAL_KEY_UNKNOWN, and
 * copies an unreadable value to a new file (or finds the copy made of it
 * before). Afterwards the state is %PAL_KEY_READABLE, or
 * %PAL_KEY_UNREADABLE with _pal_key_check_get_backup_path() set.
 *
 * Returns: %FALSE when the file could not be read or written
 */
gboolean
_pal_key_check_run (PalKeyCheck  *check,
                    GError      **error)
{
  if (check->state == PAL_KEY_UNKNOWN && !inspect_keyfile (check, error))
    return FALSE;

  if (check->state == PAL_KEY_UNREADABLE && check->backup_path == NULL)
    return back_up (check, error);

  return TRUE;
}

/* The task's data: the check, until the caller takes it back */
typedef struct
{
  PalKeyCheck *check;
} Held;

static void
held_free (Held *held)
{
  _pal_key_check_free (held->check);
  g_free (held);
}

static void
run_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Held *held = task_data;
  GError *error = NULL;

  if (_pal_key_check_run (held->check, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * _pal_key_check_run_async:
 * @check: (transfer full): a check
 *
 * _pal_key_check_run() in a thread; _pal_key_check_run_finish() hands the
 * check back.
 */
void
_pal_key_check_run_async (PalKeyCheck         *check,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Held *held = g_new0 (Held, 1);

  held->check = check;
  g_task_set_source_tag (task, _pal_key_check_run_async);
  g_task_set_task_data (task, held, (GDestroyNotify) held_free);
  g_task_run_in_thread (task, run_in_thread);
}

/**
 * _pal_key_check_run_finish:
 * @result: the result
 * @check: (out) (transfer full): the check, whatever the outcome
 * @error: %G_IO_ERROR_CANCELLED, or an error of the file system
 *
 * Returns: %TRUE when the check ran to its end
 */
gboolean
_pal_key_check_run_finish (GAsyncResult  *result,
                           PalKeyCheck  **check,
                           GError       **error)
{
  GTask *task = G_TASK (result);
  Held *held;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  held = g_task_get_task_data (task);
  *check = g_steal_pointer (&held->check);
  return g_task_propagate_boolean (task, error);
}
