/* pal-mention-finder.c: '@' in the composer: a file finder, and chips in the text
 *
 * Typing '@' at the start of a word opens a list of the files and folders
 * of the session's folders under the cursor; what follows the '@' filters
 * it (PalFileIndex, asked on a worker thread at each keystroke). Up and
 * Down pick, Enter or Tab choose, Escape closes. The choice replaces the
 * "@query" with a chip: a small widget at a GtkTextChildAnchor, one
 * character of the text, so deleting it is deleting a character. The
 * anchor carries the PalAttachment; what the composer hands over says
 * "@path" where each chip is, and carries their attachments in the order
 * of the text. A chip deleted is an attachment gone: the chips in the
 * buffer are the only record.
 *
 * The index is made at the first '@', not before: a session never
 * mentioned never walks its folders.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-file-index.h"
#include "pal-mention-finder.h"
#include "pal-picker-keys.h"

#define MAX_HITS 30
#define MAX_QUERY 200
#define OBJECT_CHAR 0xFFFC

struct _PalMentionFinder
{
  GObject        parent_instance;

  GtkTextView   *view;          /* owns us, through the composer */
  GtkPopover    *popover;
  GtkListBox    *list;
  GtkLabel      *status;
  GFile        **folders;
  guint          n_folders;
  PalFileIndex  *index;
  GCancellable  *query_cancellable;
  GtkTextMark   *at_mark;       /* before the '@' being typed */
  char          *query;         /* after it, NULL when none */
  guint          n_hits;
  guint          requery_id;    /* after the index changed */
  gboolean       editing;       /* our own changes of the buffer */
};

G_DEFINE_FINAL_TYPE (PalMentionFinder, pal_mention_finder, G_TYPE_OBJECT)

static void
pal_mention_finder_dispose (GObject *object)
{
  PalMentionFinder *self = PAL_MENTION_FINDER (object);

  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  g_clear_handle_id (&self->requery_id, g_source_remove);
  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_clear_object (&self->index);
  pal_mention_finder_unparent (self);

  G_OBJECT_CLASS (pal_mention_finder_parent_class)->dispose (object);
}

static void
pal_mention_finder_finalize (GObject *object)
{
  PalMentionFinder *self = PAL_MENTION_FINDER (object);

  for (guint i = 0; i < self->n_folders; i++)
    g_object_unref (self->folders[i]);
  g_free (self->folders);
  g_free (self->query);

  G_OBJECT_CLASS (pal_mention_finder_parent_class)->finalize (object);
}

static void
pal_mention_finder_class_init (PalMentionFinderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_mention_finder_dispose;
  object_class->finalize = pal_mention_finder_finalize;
}

static void
pal_mention_finder_init (PalMentionFinder *self)
{
}

/* {{{ chips */

/* How @file is written after '@': as the finder shows it, else its whole
 * path */
static char *
dup_mention_path (PalMentionFinder *self,
                  GFile            *file)
{
  char *path = pal_file_path_in_folders (self->folders, self->n_folders, file);

  return path != NULL ? path : g_file_get_parse_name (file);
}

static GtkWidget *
make_chip (const char *path,
           gboolean    is_folder)
{
  GtkWidget *chip = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 3);
  GtkWidget *icon = gtk_image_new_from_icon_name (is_folder ? "folder-symbolic" : "text-x-generic-symbolic");
  g_autofree char *name = g_path_get_basename (path);
  GtkWidget *label = gtk_label_new (name);
  /* Translators: what a screen reader says of a mention in the prompt; %s is a path */
  g_autofree char *description = g_strdup_printf (is_folder ? _("Folder %s") : _("File %s"), path);

  gtk_widget_add_css_class (chip, "mention");
  gtk_widget_set_tooltip_text (chip, path);
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip), GTK_ACCESSIBLE_PROPERTY_LABEL, description, -1);
  gtk_box_append (GTK_BOX (chip), icon);
  gtk_box_append (GTK_BOX (chip), label);

  return chip;
}

static void
insert_chip (PalMentionFinder *self,
             GtkTextIter      *iter,
             PalAttachment    *attachment)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  gboolean is_folder = pal_attachment_get_kind (attachment) == PAL_ATTACHMENT_FOLDER;
  g_autofree char *path = dup_mention_path (self, pal_attachment_get_file (attachment));
  GtkTextChildAnchor *anchor;

  anchor = gtk_text_buffer_create_child_anchor (buffer, iter);
  g_object_set_data_full (G_OBJECT (anchor), "pal-mention", g_object_ref (attachment), g_object_unref);
  g_object_set_data_full (G_OBJECT (anchor), "pal-mention-path", g_strdup (path), g_free);
  gtk_text_view_add_child_at_anchor (self->view, make_chip (path, is_folder), anchor);
}

static gboolean
is_object_char (gunichar c,
                gpointer data)
{
  return c == OBJECT_CHAR;
}

/**
 * pal_mention_finder_dup_text:
 * @self: a #PalMentionFinder
 *
 * Returns: (transfer full): the text of the buffer, "@path" where a chip is
 */
char *
pal_mention_finder_dup_text (PalMentionFinder *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  GString *text = g_string_new (NULL);
  GtkTextIter from, to, end;

  gtk_text_buffer_get_bounds (buffer, &from, &end);
  for (;;)
    {
      g_autofree char *run = NULL;
      GtkTextChildAnchor *anchor;
      const char *path;

      to = from;
      if (!is_object_char (gtk_text_iter_get_char (&to), NULL))
        gtk_text_iter_forward_find_char (&to, is_object_char, NULL, &end);
      run = gtk_text_buffer_get_text (buffer, &from, &to, FALSE);
      g_string_append (text, run);
      if (gtk_text_iter_equal (&to, &end))
        break;

      anchor = gtk_text_iter_get_child_anchor (&to);
      path = anchor != NULL ? g_object_get_data (G_OBJECT (anchor), "pal-mention-path") : NULL;
      if (path != NULL)
        {
          g_string_append_c (text, '@');
          g_string_append (text, path);
        }
      from = to;
      gtk_text_iter_forward_char (&from);
    }

  return g_string_free (text, FALSE);
}

/**
 * pal_mention_finder_add_attachments:
 * @self: a #PalMentionFinder
 * @prompt: the prompt being made of the buffer
 *
 * Adds the attachment of each chip to @prompt, in the order of the text.
 */
void
pal_mention_finder_add_attachments (PalMentionFinder *self,
                                    PalPrompt        *prompt)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  if (!is_object_char (gtk_text_iter_get_char (&iter), NULL)
      && !gtk_text_iter_forward_find_char (&iter, is_object_char, NULL, NULL))
    return;

  do
    {
      GtkTextChildAnchor *anchor = gtk_text_iter_get_child_anchor (&iter);
      PalAttachment *attachment = anchor != NULL ? g_object_get_data (G_OBJECT (anchor), "pal-mention") : NULL;

      if (attachment != NULL)
        pal_prompt_add_attachment (prompt, attachment);
    }
  while (gtk_text_iter_forward_find_char (&iter, is_object_char, NULL, NULL));
}

static gboolean
is_word_edge (const GtkTextIter *iter,
              gboolean           before)
{
  GtkTextIter other = *iter;

  if (before)
    {
      if (!gtk_text_iter_backward_char (&other))
        return TRUE;
      return g_unichar_isspace (gtk_text_iter_get_char (&other));
    }

  return gtk_text_iter_is_end (iter) || g_unichar_isspace (gtk_text_iter_get_char (iter));
}

/* the first "@path" standing alone in the buffer, as a chip */
static void
restore_chip (PalMentionFinder *self,
              PalAttachment    *attachment)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  g_autofree char *path = dup_mention_path (self, pal_attachment_get_file (attachment));
  g_autofree char *needle = g_strconcat ("@", path, NULL);
  GtkTextIter iter, match_start, match_end;

  gtk_text_buffer_get_start_iter (buffer, &iter);
  while (gtk_text_iter_forward_search (&iter, needle, GTK_TEXT_SEARCH_TEXT_ONLY, &match_start,
                                       &match_end, NULL))
    {
      if (is_word_edge (&match_start, TRUE) && is_word_edge (&match_end, FALSE))
        {
          gtk_text_buffer_delete (buffer, &match_start, &match_end);
          insert_chip (self, &match_start, attachment);
          return;
        }
      iter = match_end;
    }
}

/**
 * pal_mention_finder_set_text:
 * @self: a #PalMentionFinder
 * @text: (nullable): the text
 * @attachments: (nullable): #PalAttachment items
 *
 * Replaces the buffer's text; each file or folder of @attachments
 * mentioned in it as "@path" becomes a chip again.
 */
void
pal_mention_finder_set_text (PalMentionFinder *self,
                             const char       *text,
                             GListModel       *attachments)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  guint n = attachments != NULL ? g_list_model_get_n_items (attachments) : 0;
  GtkTextIter end;

  self->editing = TRUE;
  gtk_text_buffer_set_text (buffer, text != NULL ? text : "", -1);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalAttachment) attachment = g_list_model_get_item (attachments, i);
      PalAttachmentKind kind = pal_attachment_get_kind (attachment);

      if (kind == PAL_ATTACHMENT_FILE || kind == PAL_ATTACHMENT_FOLDER)
        restore_chip (self, attachment);
    }
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
  self->editing = FALSE;
  pal_mention_finder_hide (self);
}

/* }}} */
/* {{{ the finder */

void
pal_mention_finder_hide (PalMentionFinder *self)
{
  g_return_if_fail (PAL_IS_MENTION_FINDER (self));

  g_cancellable_cancel (self->query_cancellable);
  g_clear_pointer (&self->query, g_free);
  self->n_hits = 0;
  if (self->popover != NULL && gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    gtk_popover_popdown (self->popover);
}

static void
choose (PalMentionFinder *self,
        GtkListBoxRow    *row)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  PalFileHit *hit = g_object_get_data (G_OBJECT (row), "hit");
  g_autoptr(PalAttachment) attachment = NULL;
  GtkTextIter start, end;

  if (hit == NULL || self->at_mark == NULL)
    return;

  attachment = hit->is_folder ? pal_attachment_new_folder (hit->file) : pal_attachment_new_file (hit->file);
  gtk_text_buffer_get_iter_at_mark (buffer, &start, self->at_mark);
  gtk_text_buffer_get_iter_at_mark (buffer, &end, gtk_text_buffer_get_insert (buffer));

  self->editing = TRUE;
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_delete (buffer, &start, &end);
  insert_chip (self, &start, attachment);
  gtk_text_buffer_insert (buffer, &start, " ", 1);
  gtk_text_buffer_place_cursor (buffer, &start);
  gtk_text_buffer_end_user_action (buffer);
  self->editing = FALSE;

  pal_mention_finder_hide (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

static void
row_activated_cb (GtkListBox       *list,
                  GtkListBoxRow    *row,
                  PalMentionFinder *self)
{
  choose (self, row);
}

static void
ensure_popover (PalMentionFinder *self)
{
  GtkWidget *box, *scrolled;

  if (self->popover != NULL)
    return;

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_BROWSE);
  g_signal_connect (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Files"), -1);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 320);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_widget_set_margin_top (GTK_WIDGET (self->status), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->status), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self->status), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->status), 12);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_widget_set_size_request (box, 360, -1);

  self->popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->popover, box);
  gtk_popover_set_autohide (self->popover, FALSE);
  gtk_popover_set_has_arrow (self->popover, FALSE);
  gtk_popover_set_position (self->popover, GTK_POS_TOP);
  gtk_widget_add_css_class (GTK_WIDGET (self->popover), "mention-finder");
  gtk_widget_set_parent (GTK_WIDGET (self->popover), GTK_WIDGET (self->view));
}

/* the popover, under the '@' */
static void
show_popover (PalMentionFinder *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  GtkTextIter at;
  GdkRectangle rect;

  gtk_text_buffer_get_iter_at_mark (buffer, &at, self->at_mark);
  gtk_text_view_get_iter_location (self->view, &at, &rect);
  gtk_text_view_buffer_to_window_coords (self->view, GTK_TEXT_WINDOW_WIDGET, rect.x, rect.y,
                                         &rect.x, &rect.y);
  rect.width = MAX (rect.width, 1);
  gtk_popover_set_pointing_to (self->popover, &rect);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    gtk_popover_popup (self->popover);
}

static GtkWidget *
make_row (PalFileHit *hit)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name (hit->is_folder ? "folder-symbolic" : "text-x-generic-symbolic");
  GtkWidget *label = gtk_label_new (hit->path);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "hit", pal_file_hit_copy (hit), (GDestroyNotify) pal_file_hit_free);

  return row;
}

static void
show_hits (PalMentionFinder *self,
           GPtrArray        *hits)
{
  GtkWidget *child;

  ensure_popover (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);

  self->n_hits = hits != NULL ? hits->len : 0;
  for (guint i = 0; i < self->n_hits; i++)
    gtk_list_box_append (self->list, make_row (g_ptr_array_index (hits, i)));
  if (self->n_hits > 0)
    gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, 0));

  gtk_widget_set_visible (GTK_WIDGET (self->list), self->n_hits > 0);
  if (!pal_file_index_get_ready (self->index))
    gtk_label_set_text (self->status, _("Looking through the files…"));
  else if (self->n_hits == 0)
    gtk_label_set_text (self->status, _("No file matches"));
  gtk_widget_set_visible (GTK_WIDGET (self->status),
                          self->n_hits == 0 || !pal_file_index_get_ready (self->index));
  show_popover (self);
}

static void
query_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PalMentionFinder) self = user_data;
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GError) error = NULL;

  hits = pal_file_index_query_finish (PAL_FILE_INDEX (source), result, &error);
  if (hits == NULL || self->query == NULL || self->view == NULL)
    return;

  show_hits (self, hits);
}

static void
run_query (PalMentionFinder *self)
{
  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  self->query_cancellable = g_cancellable_new ();

  pal_file_index_query_async (self->index, self->query, MAX_HITS, self->query_cancellable,
                              query_done_cb, g_object_ref (self));
}

static gboolean
requery_cb (gpointer data)
{
  PalMentionFinder *self = data;

  self->requery_id = 0;
  if (self->query != NULL)
    run_query (self);

  return G_SOURCE_REMOVE;
}

/* once for a burst of changes (a checkout), after them */
static void
index_changed_cb (PalFileIndex     *index,
                  PalMentionFinder *self)
{
  if (self->query != NULL && self->requery_id == 0)
    self->requery_id = g_idle_add_full (G_PRIORITY_LOW, requery_cb, self, NULL);
}

static void
ensure_index (PalMentionFinder *self)
{
  if (self->index != NULL)
    return;

  self->index = pal_file_index_new (self->folders, self->n_folders);
  g_signal_connect (self->index, "changed", G_CALLBACK (index_changed_cb), self);
}

/* the "@word" just before the cursor, if the cursor is in one */
static char *
dup_query (PalMentionFinder *self,
           GtkTextIter      *at)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  GtkTextIter cursor, iter;

  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  iter = cursor;
  for (guint i = 0; i <= MAX_QUERY; i++)
    {
      gunichar c;

      if (!gtk_text_iter_backward_char (&iter))
        return NULL;
      c = gtk_text_iter_get_char (&iter);
      if (c == '@')
        {
          GtkTextIter after = iter;

          if (!is_word_edge (&iter, TRUE))
            return NULL;
          gtk_text_iter_forward_char (&after);
          *at = iter;
          return gtk_text_buffer_get_text (buffer, &after, &cursor, FALSE);
        }
      if (g_unichar_isspace (c) || c == OBJECT_CHAR)
        return NULL;
    }

  return NULL;
}

static void
update (PalMentionFinder *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  g_autofree char *query = NULL;
  GtkTextIter at;

  if (self->editing)
    return;

  if (self->n_folders > 0)
    query = dup_query (self, &at);
  if (query == NULL)
    {
      pal_mention_finder_hide (self);
      return;
    }
  if (self->query != NULL && g_str_equal (query, self->query))
    return;

  if (self->at_mark == NULL)
    self->at_mark = gtk_text_buffer_create_mark (buffer, NULL, &at, TRUE);
  else
    gtk_text_buffer_move_mark (buffer, self->at_mark, &at);
  g_free (self->query);
  self->query = g_steal_pointer (&query);

  ensure_index (self);
  run_query (self);
}

static void
buffer_changed_cb (GtkTextBuffer    *buffer,
                   PalMentionFinder *self)
{
  update (self);
}

static void
mark_set_cb (GtkTextBuffer    *buffer,
             GtkTextIter      *location,
             GtkTextMark      *mark,
             PalMentionFinder *self)
{
  if (mark == gtk_text_buffer_get_insert (buffer))
    update (self);
}

/**
 * pal_mention_finder_key_pressed:
 * @self: a #PalMentionFinder
 * @keyval: the key
 * @state: its modifiers
 *
 * The keys of the finder while it is open: Up, Down, Enter, Tab, Escape.
 *
 * Returns: whether the key was the finder's
 */
gboolean
pal_mention_finder_key_pressed (PalMentionFinder *self,
                                guint             keyval,
                                GdkModifierType   state)
{
  g_return_val_if_fail (PAL_IS_MENTION_FINDER (self), FALSE);

  if (self->popover == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    return FALSE;
  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;

  switch (pal_picker_key (self->list, self->n_hits, keyval))
    {
    case PAL_PICKER_KEY_MOVED:
      /* the text keeps the focus */
      gtk_widget_grab_focus (GTK_WIDGET (self->view));
      return TRUE;
    case PAL_PICKER_KEY_CLOSE:
      pal_mention_finder_hide (self);
      return TRUE;
    case PAL_PICKER_KEY_CHOOSE:
      choose (self, gtk_list_box_get_selected_row (self->list));
      return TRUE;
    case PAL_PICKER_KEY_NONE:
    default:
      return FALSE;
    }
}

/* }}} */

/**
 * pal_mention_finder_new:
 * @view: the composer's text view, which outlives the finder
 *
 * Returns: (transfer full): a finder for @view's '@'
 */
PalMentionFinder *
pal_mention_finder_new (GtkTextView *view)
{
  PalMentionFinder *self;
  GtkTextBuffer *buffer;

  g_return_val_if_fail (GTK_IS_TEXT_VIEW (view), NULL);

  self = g_object_new (PAL_TYPE_MENTION_FINDER, NULL);
  self->view = view;
  buffer = gtk_text_view_get_buffer (view);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (buffer_changed_cb), self, 0);
  g_signal_connect_object (buffer, "mark-set", G_CALLBACK (mark_set_cb), self, 0);

  return self;
}

/**
 * pal_mention_finder_set_folders:
 * @self: a #PalMentionFinder
 * @folders: (array length=n_folders): the session's folder, then its others
 * @n_folders: how many; 0 for none, and no finder
 */
void
pal_mention_finder_set_folders (PalMentionFinder  *self,
                                GFile            **folders,
                                guint              n_folders)
{
  gboolean same;

  g_return_if_fail (PAL_IS_MENTION_FINDER (self));

  same = n_folders == self->n_folders;
  for (guint i = 0; same && i < n_folders; i++)
    same = g_file_equal (folders[i], self->folders[i]);
  if (same)
    return;

  pal_mention_finder_hide (self);
  if (self->index != NULL)
    g_signal_handlers_disconnect_by_data (self->index, self);
  g_clear_object (&self->index);
  for (guint i = 0; i < self->n_folders; i++)
    g_object_unref (self->folders[i]);
  g_free (self->folders);

  self->n_folders = n_folders;
  self->folders = g_new0 (GFile *, n_folders + 1);
  for (guint i = 0; i < n_folders; i++)
    self->folders[i] = g_object_ref (folders[i]);
}

/**
 * pal_mention_finder_get_n_hits:
 * @self: a #PalMentionFinder
 *
 * Returns: how many files the finder shows (0 when it is closed)
 */
guint
pal_mention_finder_get_n_hits (PalMentionFinder *self)
{
  g_return_val_if_fail (PAL_IS_MENTION_FINDER (self), 0);

  if (self->popover == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->popover)))
    return 0;

  return self->n_hits;
}

/**
 * pal_mention_finder_unparent:
 * @self: a #PalMentionFinder
 *
 * Takes the popover off the text view: the composer's dispose calls it.
 */
void
pal_mention_finder_unparent (PalMentionFinder *self)
{
  g_return_if_fail (PAL_IS_MENTION_FINDER (self));

  if (self->popover != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->popover));
      self->popover = NULL;
      self->list = NULL;
      self->status = NULL;
    }
}
