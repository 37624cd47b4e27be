/* pal-find-bar.c: finding text in the open session's chat
 *
 * A search bar above the chat (Ctrl+F): what the person types is found in
 * the text of the session's messages (theirs, the agent's answers and
 * thoughts), in any case. The newest match is shown first; Enter, Ctrl+G
 * and the down button go to the next one below, Shift+Enter, Ctrl+Shift+G
 * and the up button to the one above, both wrapping around. The chat
 * scrolls to each match and marks it (pal_chat_view_reveal ()). The
 * transcript may grow meanwhile: the matches are found again, from the one
 * shown, at the next move. Escape closes the bar and takes the marks away;
 * so does showing another session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "acp-message-item.h"
#include "pal-a11y.h"
#include "pal-find-bar.h"
#include "pal-text-match.h"

/* Matches counted at most */
#define MAX_MATCHES 10000

typedef struct
{
  guint item;    /* in the transcript */
  gsize offset;  /* in the item's text, in bytes */
} Match;

struct _PalFindBar
{
  AdwBin          parent_instance;

  PalChatView    *chat_view;
  GListModel     *model;        /* the chat view's, watched */
  GArray         *matches;      /* Match */
  guint           current;      /* in matches, or G_MAXUINT */
  gboolean        more;         /* more than MAX_MATCHES */
  gboolean        stale;        /* the transcript changed since they were found */
  char           *searched;     /* the text they are of */

  GtkSearchBar   *search_bar;
  GtkSearchEntry *entry;
  GtkLabel       *count_label;
  GtkWidget      *previous_button;
  GtkWidget      *next_button;
};

G_DEFINE_FINAL_TYPE (PalFindBar, pal_find_bar, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_N_MATCHES,
  PROP_CURRENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
get_needle (PalFindBar *self)
{
  return gtk_editable_get_text (GTK_EDITABLE (self->entry));
}

/* Finds every match in the transcript now */
static void
find_all (PalFindBar *self)
{
  const char *needle = get_needle (self);
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  guint n;

  g_array_set_size (self->matches, 0);
  self->more = FALSE;
  self->stale = FALSE;
  g_free (self->searched);
  self->searched = g_strdup (needle);
  if (self->model == NULL || *needle == '\0')
    return;

  n = g_list_model_get_n_items (self->model);
  for (guint i = 0; i < n && !self->more; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (self->model, i);
      AcpMessageItem *message;

      if (!ACP_IS_MESSAGE_ITEM (item))
        continue;

      message = ACP_MESSAGE_ITEM (item);
      g_array_set_size (offsets, 0);
      self->more = pal_text_match_all (acp_message_item_get_text (message),
                                       acp_message_item_get_text_length (message), needle,
                                       MAX_MATCHES - self->matches->len, offsets);
      for (guint j = 0; j < offsets->len; j++)
        {
          Match match = { i, g_array_index (offsets, gsize, j) };

          g_array_append_val (self->matches, match);
        }
      if (self->matches->len >= MAX_MATCHES && i + 1 < n)
        self->more = TRUE;
    }
}

static void
update_count (PalFindBar *self)
{
  g_autofree char *text = NULL;
  guint n = self->matches->len;
  gboolean searching = *get_needle (self) != '\0';

  if (n == 0)
    text = g_strdup (searching ? _("No matches") : "");
  else if (self->more)
    /* Translators: which match of how many is shown, as in “3 of more than 10000” */
    text = g_strdup_printf (_("%u of more than %u"), self->current + 1, n);
  else
    /* Translators: which match of how many is shown, as in “3 of 12” */
    text = g_strdup_printf (_("%u of %u"), self->current + 1, n);

  gtk_label_set_text (self->count_label, text);
  gtk_widget_set_sensitive (self->previous_button, n > 0);
  gtk_widget_set_sensitive (self->next_button, n > 0);
  if (searching && n == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
  pal_a11y_set_invalid (GTK_WIDGET (self->entry), searching && n == 0);
}

static void
set_current (PalFindBar *self,
             guint       current)
{
  if (self->matches->len == 0)
    current = G_MAXUINT;

  self->current = current;
  update_count (self);

  if (self->chat_view != NULL)
    {
      if (current == G_MAXUINT)
        {
          pal_chat_view_clear_reveal (self->chat_view);
        }
      else
        {
          Match *match = &g_array_index (self->matches, Match, current);

          pal_chat_view_reveal (self->chat_view, match->item, match->offset, get_needle (self));
        }
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_MATCHES]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT]);
}

/* Finds the matches again and shows the newest */
static void
search (PalFindBar *self)
{
  find_all (self);
  set_current (self, self->matches->len > 0 ? self->matches->len - 1 : G_MAXUINT);
}

/* Finds the matches again after the transcript changed: the one shown, or
 * the next after where it was, stays the current one */
static void
refresh (PalFindBar *self)
{
  Match was = { 0, 0 };
  gboolean had = self->current != G_MAXUINT && self->current < self->matches->len;
  guint current = G_MAXUINT;

  if (had)
    was = g_array_index (self->matches, Match, self->current);

  find_all (self);
  for (guint i = 0; had && i < self->matches->len; i++)
    {
      Match *match = &g_array_index (self->matches, Match, i);

      if (match->item > was.item || (match->item == was.item && match->offset >= was.offset))
        {
          current = i;
          break;
        }
    }
  if (current == G_MAXUINT && self->matches->len > 0)
    current = self->matches->len - 1;

  self->current = current;
}

static void
move (PalFindBar *self,
      int         step)
{
  guint n;

  if (self->stale)
    refresh (self);

  n = self->matches->len;
  if (n == 0)
    {
      set_current (self, G_MAXUINT);
      return;
    }

  if (self->current == G_MAXUINT)
    set_current (self, n - 1);
  else
    set_current (self, (self->current + n + (guint) (step > 0 ? 1 : n - 1)) % n);
}

/* --- following the chat --- */

static void
model_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        PalFindBar *self)
{
  self->stale = TRUE;
}

static void
watch_model (PalFindBar *self)
{
  GListModel *model = self->chat_view != NULL ? pal_chat_view_get_model (self->chat_view) : NULL;

  if (model == self->model)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed_cb, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect (model, "items-changed", G_CALLBACK (model_items_changed_cb), self);

  /* another session (or the same one opened again): the bar closes
   * rather than scroll it away from its end */
  pal_find_bar_close (self);
  g_array_set_size (self->matches, 0);
  self->current = G_MAXUINT;
}

static void
chat_view_model_cb (PalFindBar *self)
{
  watch_model (self);
}

/* --- the bar --- */

static void
search_changed_cb (PalFindBar *self)
{
  /* pal_find_bar_set_text () searched for it already */
  if (g_strcmp0 (get_needle (self), self->searched) != 0)
    search (self);
}

static void
next_cb (PalFindBar *self)
{
  move (self, 1);
}

static void
previous_cb (PalFindBar *self)
{
  move (self, -1);
}

static void
stop_search_cb (PalFindBar *self)
{
  pal_find_bar_close (self);
}

static gboolean
entry_key_pressed_cb (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      PalFindBar            *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK) != 0)
    {
      move (self, -1);
      return TRUE;
    }

  return FALSE;
}

static void
search_mode_cb (PalFindBar *self)
{
  if (gtk_search_bar_get_search_mode (self->search_bar))
    return;

  /* closed: nothing stays marked */
  g_array_set_size (self->matches, 0);
  self->current = G_MAXUINT;
  g_clear_pointer (&self->searched, g_free);
  if (self->chat_view != NULL)
    pal_chat_view_clear_reveal (self->chat_view);
}

static void
pal_find_bar_dispose (GObject *object)
{
  PalFindBar *self = PAL_FIND_BAR (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, model_items_changed_cb, self);
  g_clear_object (&self->model);
  if (self->chat_view != NULL)
    g_signal_handlers_disconnect_by_func (self->chat_view, chat_view_model_cb, self);
  g_clear_object (&self->chat_view);

  G_OBJECT_CLASS (pal_find_bar_parent_class)->dispose (object);
}

static void
pal_find_bar_finalize (GObject *object)
{
  PalFindBar *self = PAL_FIND_BAR (object);

  g_array_unref (self->matches);
  g_free (self->searched);

  G_OBJECT_CLASS (pal_find_bar_parent_class)->finalize (object);
}

static void
pal_find_bar_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PalFindBar *self = PAL_FIND_BAR (object);

  switch (prop_id)
    {
    case PROP_N_MATCHES:
      g_value_set_uint (value, self->matches->len);
      break;

    case PROP_CURRENT:
      g_value_set_uint (value, self->current);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_find_bar_class_init (PalFindBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_find_bar_dispose;
  object_class->finalize = pal_find_bar_finalize;
  object_class->get_property = pal_find_bar_get_property;

  properties[PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* the match shown, from 0; G_MAXUINT for none */
  properties[PROP_CURRENT] =
    g_param_spec_uint ("current", NULL, NULL, 0, G_MAXUINT, G_MAXUINT,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static GtkWidget *
arrow_button (const char *icon_name,
              const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_set_sensitive (button, FALSE);

  return button;
}

static void
pal_find_bar_init (PalFindBar *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *arrows = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->matches = g_array_new (FALSE, FALSE, sizeof (Match));
  self->current = G_MAXUINT;

  self->entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->entry, "placeholder-text", _("Find in the session"), NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Find in the session"), -1);
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->entry, "next-match", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->entry, "previous-match", G_CALLBACK (previous_cb), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (stop_search_cb), self);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (entry_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);

  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "numeric");
  gtk_label_set_width_chars (self->count_label, 12);
  gtk_label_set_xalign (self->count_label, 1);

  self->previous_button = arrow_button ("go-up-symbolic", _("Previous Match (Shift+Enter)"));
  self->next_button = arrow_button ("go-down-symbolic", _("Next Match (Enter)"));
  g_signal_connect_swapped (self->previous_button, "clicked", G_CALLBACK (previous_cb), self);
  g_signal_connect_swapped (self->next_button, "clicked", G_CALLBACK (next_cb), self);
  gtk_widget_add_css_class (arrows, "linked");
  gtk_box_append (GTK_BOX (arrows), self->previous_button);
  gtk_box_append (GTK_BOX (arrows), self->next_button);

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->entry));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->count_label));
  gtk_box_append (GTK_BOX (box), arrows);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 560);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);

  self->search_bar = GTK_SEARCH_BAR (gtk_search_bar_new ());
  gtk_search_bar_set_child (self->search_bar, clamp);
  gtk_search_bar_set_show_close_button (self->search_bar, TRUE);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->entry));
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (search_mode_cb), self);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->search_bar));
}

GtkWidget *
pal_find_bar_new (void)
{
  return g_object_new (PAL_TYPE_FIND_BAR, NULL);
}

/**
 * pal_find_bar_set_chat_view:
 * @self: a #PalFindBar
 * @chat_view: (nullable): the chat to find in; whatever session it shows
 */
void
pal_find_bar_set_chat_view (PalFindBar  *self,
                            PalChatView *chat_view)
{
  g_return_if_fail (PAL_IS_FIND_BAR (self));
  g_return_if_fail (chat_view == NULL || PAL_IS_CHAT_VIEW (chat_view));

  if (self->chat_view != NULL)
    g_signal_handlers_disconnect_by_func (self->chat_view, chat_view_model_cb, self);
  g_set_object (&self->chat_view, chat_view);
  if (chat_view != NULL)
    g_signal_connect_swapped (chat_view, "notify::model", G_CALLBACK (chat_view_model_cb), self);
  watch_model (self);
}

/**
 * pal_find_bar_open:
 * @self: a #PalFindBar
 *
 * Shows the bar with the focus in its entry, the text there selected; a
 * search left in it is made again.
 */
void
pal_find_bar_open (PalFindBar *self)
{
  g_return_if_fail (PAL_IS_FIND_BAR (self));

  if (!gtk_search_bar_get_search_mode (self->search_bar))
    {
      gtk_search_bar_set_search_mode (self->search_bar, TRUE);
      if (*get_needle (self) != '\0')
        search (self);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

void
pal_find_bar_close (PalFindBar *self)
{
  g_return_if_fail (PAL_IS_FIND_BAR (self));

  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
}

gboolean
pal_find_bar_get_open (PalFindBar *self)
{
  g_return_val_if_fail (PAL_IS_FIND_BAR (self), FALSE);

  return gtk_search_bar_get_search_mode (self->search_bar);
}

/**
 * pal_find_bar_set_text:
 * @self: a #PalFindBar
 * @text: what to find
 *
 * Opens the bar and finds @text now, rather than after the entry's pause.
 */
void
pal_find_bar_set_text (PalFindBar *self,
                       const char *text)
{
  g_return_if_fail (PAL_IS_FIND_BAR (self));
  g_return_if_fail (text != NULL);

  pal_find_bar_open (self);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
  search (self);
}

void
pal_find_bar_next (PalFindBar *self)
{
  g_return_if_fail (PAL_IS_FIND_BAR (self));

  move (self, 1);
}

void
pal_find_bar_previous (PalFindBar *self)
{
  g_return_if_fail (PAL_IS_FIND_BAR (self));

  move (self, -1);
}

guint
pal_find_bar_get_n_matches (PalFindBar *self)
{
  g_return_val_if_fail (PAL_IS_FIND_BAR (self), 0);

  return self->matches->len;
}

guint
pal_find_bar_get_current (PalFindBar *self)
{
  g_return_val_if_fail (PAL_IS_FIND_BAR (self), G_MAXUINT);

  return self->current;
}
