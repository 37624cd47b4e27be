/* pal-stored-list-key.c: a stored list's key, read and written
 *
 * Writing the key (once the main loop is idle, or at once), reading it
 * again when someone else wrote it, with the changes not written yet on
 * top (and the list's last write, when theirs was written from an older
 * copy), and the values GSettings cannot read: reported, and copied to a
 * file before anything replaces them (pal-settings-backup.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-stored-list-private.h"

/* --- writing --- */

static void read_key (PalStoredList *self,
                      gboolean       check_first);

/* What the list writes: the stored items, then the entries it could not
 * read, unchanged. */
static GVariant *
build_value (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  GPtrArray *items = klass->get_stored_items (self);
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < items->len; i++)
    {
      GVariant *entry = klass->encode (g_ptr_array_index (items, i));

      if (entry != NULL)
        g_variant_builder_add_value (&builder, entry);
    }
  for (guint i = 0; i < priv->skipped->len; i++)
    g_variant_builder_add_value (&builder, g_ptr_array_index (priv->skipped, i));
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

void
_pal_stored_list_save (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  g_autoptr(GVariant) value = NULL;

  g_clear_handle_id (&priv->save_source, g_source_remove);
  priv->dirty = TRUE;

  /* the key's value is being copied, or could not be */
  if (priv->check_state != CHECK_NONE)
    return;

  /* Someone else may have written the key without the list hearing of it
   * yet (another instance's write crossing this one): theirs first, with
   * these changes on top. That may start a check of their value. */
  read_key (self, TRUE);
  if (priv->check_state != CHECK_NONE)
    return;

  value = build_value (self);
  priv->dirty = FALSE;
  if (priv->last_value != NULL && g_variant_equal (priv->last_value, value))
    return;

  /* what the others may still have: kept until one of them writes */
  if (priv->before_write == NULL && !_pal_settings_in_one_process (priv->settings))
    priv->before_write = g_steal_pointer (&priv->last_value);
  g_clear_pointer (&priv->last_value, g_variant_unref);
  priv->last_value = g_variant_ref (value);
  priv->lossy = FALSE;
  g_settings_set_value (priv->settings, klass->key, value);
}

static gboolean
save_idle_cb (gpointer user_data)
{
  PalStoredList *self = user_data;
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  priv->save_source = 0;
  _pal_stored_list_save (self);
  return G_SOURCE_REMOVE;
}

void
_pal_stored_list_queue_save (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  priv->dirty = TRUE;
  if (priv->save_source == 0)
    priv->save_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, save_idle_cb, self, NULL);
}

void
_pal_stored_list_block_changes (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  priv->blocked++;
}

void
_pal_stored_list_unblock_changes (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  g_assert (priv->blocked > 0);
  priv->blocked--;
}

/* --- load errors --- */

/* The load errors: the key's own, then its entries'. */
static void
update_load_errors (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  GPtrArray *errors = g_ptr_array_new_null_terminated (priv->entry_errors->len + 1, g_free, TRUE);
  gboolean same;

  if (priv->key_error != NULL)
    g_ptr_array_add (errors, g_strdup (priv->key_error));
  for (guint i = 0; i < priv->entry_errors->len; i++)
    g_ptr_array_add (errors, g_strdup (g_ptr_array_index (priv->entry_errors, i)));

  same = g_strv_equal (_pal_ptr_array_as_strv (errors), _pal_ptr_array_as_strv (priv->load_errors));
  g_ptr_array_unref (priv->load_errors);
  priv->load_errors = errors;
  if (!same)
    g_object_notify (G_OBJECT (self), "load-errors");
}

/* What the key holds, translated ("Sessions"). */
static const char *
describe_key (PalStoredList *self)
{
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);

  return klass->title != NULL ? _(klass->title) : klass->key;
}

/* What is wrong with the key's value: @reason (nullable) why it cannot be
 * read; where it was copied, or why it could not be (@error). NULL,
 * NULL: nothing. */
static void
set_key_error (PalStoredList *self,
               const char    *reason,
               const GError  *error)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  const char *what = describe_key (self);
  GString *message = g_string_new (NULL);

  if (reason != NULL)
    /* TRANSLATORS: the first %s names a list (“Sessions”), the second says
     * what is wrong with it */
    g_string_append_printf (message, _("The stored list “%s” could not be read: %s."),
                            what, reason);

  if (error != NULL)
    {
      if (message->len > 0)
        g_string_append_c (message, ' ');
      /* TRANSLATORS: the first %s names a list (“Sessions”), the second is
       * the reason */
      g_string_append_printf (message, _("A copy of the stored list “%s” could not be made "
                                         "(%s), so changes to it are not saved."),
                              what, error->message);
    }
  else if (reason != NULL && priv->backup_path != NULL)
    /* TRANSLATORS: %s is a file */
    g_string_append_printf (message, _(" What it held was copied to “%s”."), priv->backup_path);

  g_free (priv->key_error);
  priv->key_error = message->len > 0 ? g_string_free (message, FALSE) : NULL;
  if (priv->key_error == NULL)
    g_string_free (message, TRUE);
  update_load_errors (self);
}

/* --- values that cannot be read as they are stored --- */

static void
set_backup_path (PalStoredList *self,
                 const char    *path)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  if (_pal_set_string (&priv->backup_path, path))
    g_object_notify (G_OBJECT (self), "backup-path");
}

static void
cancel_check (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  g_cancellable_cancel (priv->check_cancellable);
  g_clear_object (&priv->check_cancellable);
  priv->check_state = CHECK_NONE;
  priv->check_rereads = FALSE;
}

/* The key's value was checked, and copied when it had to be. */
static void
check_finished (PalStoredList *self,
                PalKeyCheck   *check,
                const GError  *error)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  gboolean rereads = priv->check_rereads;

  g_clear_object (&priv->check_cancellable);
  priv->check_rereads = FALSE;

  if (error != NULL)
    {
      /* nothing is written until the key changes */
      priv->check_state = CHECK_FAILED;
      set_key_error (self, _pal_key_check_get_reason (check), error);
      return;
    }

  priv->check_state = CHECK_NONE;

  if (_pal_key_check_get_state (check) == PAL_KEY_READABLE)
    {
      /* a keyfile that simply holds no value, or did not when GSettings read it */
      if (rereads)
        read_key (self, FALSE);
    }
  else
    {
      set_backup_path (self, _pal_key_check_get_backup_path (check));
      if (_pal_key_check_get_reason (check) != NULL)
        {
          g_autoptr(GVariant) shown = g_settings_get_value (priv->settings, klass->key);

          set_key_error (self, _pal_key_check_get_reason (check), NULL);
          /* What GSettings shows counts as read, so that the next write
           * replaces the copied value instead of checking it again. Ours,
           * kept when theirs could not be read, goes back in. */
          g_clear_pointer (&priv->last_value, g_variant_unref);
          priv->last_value = g_steal_pointer (&shown);
          if (rereads)
            priv->dirty = TRUE;
        }
    }

  if (priv->dirty)
    _pal_stored_list_save (self);
}

static void
check_done_cb (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PalKeyCheck) check = NULL;
  g_autoptr(GError) error = NULL;

  /* cancelled: the list is gone, or another check took over */
  if (!_pal_key_check_run_finish (result, &check, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  check_finished (user_data, check, error);
}

/* Runs @check (taken) in a thread; writes wait for it. While the list is
 * disposed, it runs at once: the application is quitting. */
static void
start_check (PalStoredList *self,
             PalKeyCheck   *check,
             gboolean       rereads)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  cancel_check (self);
  priv->check_state = CHECK_RUNNING;
  priv->check_rereads = rereads;

  if (_pal_key_check_get_reason (check) != NULL)
    set_key_error (self, _pal_key_check_get_reason (check), NULL);

  if (priv->disposing)
    {
      g_autoptr(PalKeyCheck) held = check;
      g_autoptr(GError) error = NULL;

      _pal_key_check_run (held, &error);
      check_finished (self, held, error);
      return;
    }

  priv->check_cancellable = g_cancellable_new ();
  _pal_key_check_run_async (check, priv->check_cancellable, check_done_cb, self);
}

/* Entries of the value read lost members: a copy of it before it is
 * replaced. */
static void
check_lossy (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  g_autofree char *text = NULL;

  if (!priv->lossy || priv->check_state == CHECK_RUNNING)
    return;

  text = g_variant_print (priv->last_value, TRUE);
  start_check (self, _pal_key_check_new_for_text (PAL_STORED_LIST_GET_CLASS (self)->key, text),
               FALSE);
}

/* --- taking over what was read --- */

/* Takes over @parse: the key's value as the one last read, its readable
 * entries listed, the others kept raw. */
static void
apply_parse (PalStoredList      *self,
             PalStoredListParse *parse)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (parse->items->len, g_object_unref);

  g_clear_pointer (&priv->last_value, g_variant_unref);
  priv->last_value = g_steal_pointer (&parse->value);
  priv->lossy = parse->lossy;
  g_clear_pointer (&priv->skipped, g_ptr_array_unref);
  priv->skipped = g_steal_pointer (&parse->skipped);
  g_clear_pointer (&priv->entry_errors, g_ptr_array_unref);
  priv->entry_errors = g_steal_pointer (&parse->load_errors);

  _pal_stored_list_block_changes (self);
  for (guint i = 0; i < parse->items->len; i++)
    {
      gpointer entry = g_ptr_array_index (parse->items, i);
      gpointer item = g_hash_table_lookup (priv->index, klass->get_id (entry));

      if (item != NULL)
        klass->update_item (self, item, entry);
      else
        item = entry;
      g_ptr_array_add (items, g_object_ref (item));
    }
  klass->apply_entries (self, items);
  _pal_stored_list_unblock_changes (self);

  update_load_errors (self);
  _pal_stored_list_parse_free (parse);
}

/* Reads the key again when it holds another value than the one read or
 * written last: someone else wrote it. Changes not written yet go on top
 * of theirs. A value that cannot be read (@check_first) leaves the list
 * as it is; it is checked and copied first, then the list written. */
static void
read_key (PalStoredList *self,
          gboolean       check_first)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  g_autoptr(GVariant) value = g_settings_get_value (priv->settings, klass->key);
  g_autoptr(GVariant) unseen = NULL;

  if (priv->last_value != NULL && g_variant_equal (priv->last_value, value))
    return;

  if (check_first)
    {
      g_autoptr(PalKeyCheck) check = _pal_key_check_new (priv->settings, klass->key);

      if (_pal_key_check_get_state (check) != PAL_KEY_READABLE)
        {
          start_check (self, g_steal_pointer (&check), TRUE);
          return;
        }
    }

  /* theirs can be read: a check still running or failed is past, and
   * what was said of it */
  if (priv->check_state != CHECK_NONE)
    {
      cancel_check (self);
      set_key_error (self, NULL, NULL);
    }

  /* the first value someone else wrote since the list did: did they read
   * the list's write? */
  if (priv->before_write != NULL && priv->last_value != NULL)
    unseen = _pal_stored_list_keep_unseen (self, priv->before_write, priv->last_value, value);
  g_clear_pointer (&priv->before_write, g_variant_unref);
  if (!_pal_settings_in_one_process (priv->settings))
    {
      GVariant *lost = _pal_stored_list_keep_lost (self, unseen != NULL ? unseen : value);

      if (lost != NULL)
        {
          g_clear_pointer (&unseen, g_variant_unref);
          unseen = lost;
        }
    }
  if (unseen != NULL)
    {
      g_debug ("“%s” was written from a copy older than this list's last write: "
               "putting back what it lacks", klass->key);
      priv->dirty = TRUE;
    }

  if (priv->dirty)
    {
      g_autoptr(GVariant) merged = _pal_stored_list_merge (klass, priv->last_value,
                                                           klass->get_stored_items (self),
                                                           unseen != NULL ? unseen : value);

      if (unseen == NULL)
        g_debug ("“%s” changed with changes not written yet: merging them", klass->key);
      apply_parse (self, _pal_stored_list_parse (klass, merged));
      /* what the key holds; the merged value is written next */
      g_clear_pointer (&priv->last_value, g_variant_unref);
      priv->last_value = g_steal_pointer (&value);
    }
  else
    apply_parse (self, _pal_stored_list_parse (klass, value));

  check_lossy (self);
}

void
_pal_stored_list_key_changed_cb (GSettings  *settings,
                                 const char *key,
                                 gpointer    user_data)
{
  PalStoredList *self = user_data;
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);

  read_key (self, TRUE);
  /* changes merged with theirs */
  if (priv->dirty && priv->check_state == CHECK_NONE)
    _pal_stored_list_save (self);
}

/* Writes what is pending before the list goes, checking the key's value
 * at once if a check is still running in its thread; nothing is written
 * later. */
void
_pal_stored_list_write_before_dispose (PalStoredList *self)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);

  /* checks run at once from here on */
  priv->disposing = TRUE;

  if (priv->check_state == CHECK_RUNNING && (priv->save_source != 0 || priv->dirty))
    {
      g_autoptr(PalKeyCheck) check = _pal_key_check_new (priv->settings, klass->key);
      gboolean rereads = priv->check_rereads;

      if (_pal_key_check_get_state (check) == PAL_KEY_READABLE && priv->lossy)
        {
          g_autofree char *text = g_variant_print (priv->last_value, TRUE);

          g_clear_pointer (&check, _pal_key_check_free);
          check = _pal_key_check_new_for_text (klass->key, text);
        }

      cancel_check (self);
      if (_pal_key_check_get_state (check) != PAL_KEY_READABLE)
        /* writes when it may */
        start_check (self, g_steal_pointer (&check), rereads);
    }

  if ((priv->save_source != 0 || priv->dirty) && priv->check_state == CHECK_NONE)
    _pal_stored_list_save (self);

  cancel_check (self);
  g_clear_handle_id (&priv->save_source, g_source_remove);
}

/* Takes over what was read first (the list is new), and checks what the
 * key holds beneath it. */
void
_pal_stored_list_read_first (PalStoredList      *self,
                             PalStoredListParse *parse)
{
  PalStoredListPrivate *priv = _pal_stored_list_get_private (self);
  PalStoredListClass *klass = PAL_STORED_LIST_GET_CLASS (self);
  g_autoptr(PalKeyCheck) check = NULL;

  apply_parse (self, parse);

  /* what GSettings read may not be what the key holds */
  check = _pal_key_check_new (priv->settings, klass->key);
  if (_pal_key_check_get_state (check) != PAL_KEY_READABLE)
    start_check (self, g_steal_pointer (&check), FALSE);
  else
    check_lossy (self);
}
