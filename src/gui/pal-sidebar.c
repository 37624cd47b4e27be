/* pal-sidebar.c: the sessions, grouped by folder, with search
 *
 * A GtkListView over PalSessionGroups over a filter of the session store:
 * folders with their sessions, newest activity first. Typing in the search
 * field keeps sessions whose title, folder or agent match, and offers to
 * look for it in the messages of every session (win.search-history).
 * Activating a row (a click on it but not on its menu button, which the
 * row tells apart; Enter; a double click) emits "session-activated". Each
 * row binds to the live session of its session, found in the list of live
 * sessions the window gives (the session manager's): the list says when one
 * comes or goes, the live session itself when its state changes.
 *
 * GTK's list view binds up to 200 rows (GTK_LIST_VIEW_MAX_LIST_ITEMS, in
 * 4.8 and still in 4.22) as soon as it has the items, whatever its height,
 * and builds, styles and measures each before the first frame: with
 * thousands of stored sessions that was most of what the sidebar added to
 * the start. So the list view sees the first FIRST_ITEMS items (a tall
 * screen's worth) through a GtkSliceListModel, then ITEMS_PER_FRAME more in
 * each frame after the first one it painted, and all of them once it has
 * as many as it keeps rows for: the items after those get no row. Selecting
 * a session not let in yet lets in all at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "pal-a11y.h"
#include "pal-session-groups.h"
#include "pal-sidebar.h"
#include "pal-tooltip.h"

#define FIRST_ITEMS     32
#define ITEMS_PER_FRAME 16
/* GTK_LIST_VIEW_MAX_LIST_ITEMS */
#define LIST_VIEW_ROWS  200

struct _PalSidebar
{
  AdwBin              parent_instance;

  PalSessionStore    *session_store;
  PalAgentStore      *agent_store;
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  PalSessionGroups   *groups;
  GtkSliceListModel  *slice;        /* the items the list view sees so far */
  GtkSingleSelection *selection;
  GHashTable         *rows;         /* PalSessionKey → bound PalSessionRow (weak) */
  char               *search;       /* casefolded, or NULL */
  PalSessionKey      *selected;

  GListModel         *live_sessions; /* of PalLiveSession; nullable */
  PalSessionMenuCanFunc can_func;
  gpointer            can_data;

  GtkSearchEntry     *search_entry;
  GtkRevealer        *messages_revealer;  /* "Search in Messages" */
  GtkWidget          *messages_button;
  GtkListView        *list_view;
  GtkStack           *stack;
  AdwStatusPage      *empty_page;
  guint               tick_id;
  guint               let_in_id;    /* tick callback on the list view */
  gboolean            painted;      /* the list view painted a frame */
};

enum {
  SESSION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalSidebar, pal_sidebar, ADW_TYPE_BIN)

static void refresh_agent_names (PalSidebar *self);

static const char *
agent_name (PalSidebar *self,
            const char *agent_id)
{
  PalAgentProfile *profile;

  if (self->agent_store == NULL || agent_id == NULL)
    return NULL;

  profile = pal_agent_store_lookup (self->agent_store, agent_id);
  if (profile == NULL)
    return pal_agent_store_get_name (self->agent_store, agent_id);

  /* a profile renamed in Preferences is renamed here too */
  if (g_signal_handler_find (profile, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                             refresh_agent_names, self) == 0)
    g_signal_connect_object (profile, "notify::name", G_CALLBACK (refresh_agent_names), self,
                             G_CONNECT_SWAPPED);

  return pal_agent_profile_get_name (profile);
}

/* The agents found on PATH arrive after the list is shown, and profiles come
 * and go in Preferences: the rows on screen, and a search by agent name,
 * follow. */
static void
refresh_agent_names (PalSidebar *self)
{
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    {
      PalSessionRecord *record = pal_session_row_get_record (row);

      if (record != NULL)
        pal_session_row_set_record (row, record, agent_name (self, pal_session_record_get_agent_id (record)));
    }

  if (self->search != NULL)
    gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static gboolean
contains_casefold (const char *haystack,
                   const char *needle)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;

  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, needle) != NULL;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PalSidebar *self = user_data;
  PalSessionRecord *record = item;

  if (self->search == NULL)
    return TRUE;

  return contains_casefold (pal_session_record_get_title (record), self->search) ||
         contains_casefold (pal_session_record_get_cwd (record), self->search) ||
         contains_casefold (agent_name (self, pal_session_record_get_agent_id (record)), self->search);
}

static void
update_empty (PalSidebar *self)
{
  gboolean empty = g_list_model_get_n_items (pal_session_groups_get_model (self->groups)) == 0;

  if (!empty)
    {
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }

  if (self->search != NULL)
    {
      adw_status_page_set_icon_name (self->empty_page, "edit-find-symbolic");
      adw_status_page_set_title (self->empty_page, _("No Results"));
      adw_status_page_set_description (self->empty_page, _("No session matches the search."));
    }
  else
    {
      adw_status_page_set_icon_name (self->empty_page, "io.github.palaverapp.Palaver-symbolic");
      adw_status_page_set_title (self->empty_page, _("No Sessions"));
      adw_status_page_set_description (self->empty_page,
                                       _("Start a session with <b>Ctrl+N</b>."));
    }
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
search_changed_cb (GtkSearchEntry *entry,
                   PalSidebar     *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  g_clear_pointer (&self->search, g_free);
  if (*stripped != '\0')
    self->search = g_utf8_casefold (stripped, -1);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->messages_button),
                                          g_variant_new_string (stripped));
  gtk_revealer_set_reveal_child (self->messages_revealer, self->search != NULL);

  /* without a search, no filter: the list model then passes every session
   * through without asking about each */
  if (self->search == NULL)
    gtk_filter_list_model_set_filter (self->filtered, NULL);
  else if (gtk_filter_list_model_get_filter (self->filtered) == NULL)
    gtk_filter_list_model_set_filter (self->filtered, GTK_FILTER (self->filter));
  else
    gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_empty (self);
}

static void
groups_changed_cb (GListModel *model,
                   guint       position,
                   guint       removed,
                   guint       added,
                   PalSidebar *self)
{
  update_empty (self);

  /* keep the current session highlighted as rows move */
  if (self->selected != NULL)
    pal_sidebar_select (self, self->selected);
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          PalSidebar               *self)
{
  gtk_list_item_set_child (list_item, adw_bin_new ());
}

/* A folder's header; @label, when given, is one made here before. */
static GtkWidget *
group_header (GtkWidget       *label,
              PalSessionGroup *group)
{
  const char *cwd = pal_session_group_get_cwd (group);
  g_autofree char *name = g_path_get_basename (cwd != NULL && *cwd != '\0' ? cwd : "/");

  if (label == NULL)
    {
      label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_add_css_class (label, "folder-header");
      gtk_widget_set_margin_top (label, 12);
      gtk_widget_set_margin_bottom (label, 2);
      gtk_widget_set_margin_start (label, 6);
    }

  gtk_label_set_text (GTK_LABEL (label), name);
  pal_widget_set_quiet_tooltip (label, cwd);

  return label;
}

/* The live session of @key, if it is live. (transfer none) */
static PalLiveSession *
find_live (PalSidebar    *self,
           PalSessionKey *key)
{
  guint n = self->live_sessions != NULL ? g_list_model_get_n_items (self->live_sessions) : 0;

  for (guint i = 0; i < n; i++)
    {
      PalLiveSession *live = g_list_model_get_item (self->live_sessions, i);
      gboolean found = pal_session_key_equal (pal_live_session_get_key (live), key);

      /* the list keeps it */
      g_object_unref (live);
      if (found)
        return live;
    }

  return NULL;
}

/* A session became live, or is live no more: the rows on screen bind to
 * the live sessions there are now. */
static void
live_sessions_changed_cb (PalSidebar *self)
{
  GHashTableIter iter;
  gpointer key, row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &key, &row))
    pal_session_row_set_live_session (row, find_live (self, key));
}

static void
row_activated_cb (PalSessionRow *row,
                  PalSidebar    *self)
{
  PalSessionRecord *record = pal_session_row_get_record (row);

  if (record != NULL)
    g_signal_emit (self, signals[SESSION_ACTIVATED], 0, pal_session_record_get_key (record));
}

/* A list item keeps the widget it showed last: bound again to another item
 * of the same kind, it is given the new item rather than built anew. */
static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         PalSidebar               *self)
{
  AdwBin *bin = ADW_BIN (gtk_list_item_get_child (list_item));
  GtkWidget *child = adw_bin_get_child (bin);
  gpointer item = gtk_list_item_get_item (list_item);
  /* the list's own row around the header: a header is no choice, and does
   * not light up as one (GTK 4.8 lets the list's focus start on it) */
  GtkWidget *list_row = gtk_widget_get_parent (GTK_WIDGET (bin));

  if (list_row != NULL)
    {
      if (PAL_IS_SESSION_GROUP (item))
        gtk_widget_add_css_class (list_row, "folder-row");
      else
        gtk_widget_remove_css_class (list_row, "folder-row");
    }

  if (PAL_IS_SESSION_GROUP (item))
    {
      gtk_list_item_set_selectable (list_item, FALSE);
      gtk_list_item_set_activatable (list_item, FALSE);
      adw_bin_set_child (bin, group_header (GTK_IS_LABEL (child) ? child : NULL, item));
    }
  else
    {
      PalSessionRecord *record = item;
      PalSessionKey *key = pal_session_record_get_key (record);
      PalSessionRow *row;

      if (PAL_IS_SESSION_ROW (child))
        row = PAL_SESSION_ROW (child);
      else
        {
          row = PAL_SESSION_ROW (pal_session_row_new ());
          g_signal_connect (row, "activated", G_CALLBACK (row_activated_cb), self);
          adw_bin_set_child (bin, GTK_WIDGET (row));
        }

      gtk_list_item_set_selectable (list_item, TRUE);
      gtk_list_item_set_activatable (list_item, TRUE);
      pal_session_row_set_record (row, record,
                                  agent_name (self, pal_session_record_get_agent_id (record)));
      pal_session_row_set_live_session (row, find_live (self, key));
      pal_session_row_set_can_func (row, self->can_func, self->can_data);
      g_hash_table_insert (self->rows, pal_session_key_ref (key), row);
    }

  /* the list's row is named after what it shows */
  gtk_accessible_update_relation (GTK_ACCESSIBLE (gtk_widget_get_parent (GTK_WIDGET (bin))),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, adw_bin_get_child (bin), NULL, -1);
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           PalSidebar               *self)
{
  AdwBin *bin = ADW_BIN (gtk_list_item_get_child (list_item));
  GtkWidget *child = adw_bin_get_child (bin);

  if (PAL_IS_SESSION_ROW (child))
    {
      PalSessionRecord *record = pal_session_row_get_record (PAL_SESSION_ROW (child));

      if (record != NULL &&
          g_hash_table_lookup (self->rows, pal_session_record_get_key (record)) == child)
        g_hash_table_remove (self->rows, pal_session_record_get_key (record));
      /* kept for the next item, without this one */
      pal_session_row_set_record (PAL_SESSION_ROW (child), NULL, NULL);
      pal_session_row_set_live_session (PAL_SESSION_ROW (child), NULL);
    }
}

static void
list_activate_cb (GtkListView *list_view,
                  guint        position,
                  PalSidebar  *self)
{
  g_autoptr(GObject) item = g_list_model_get_item (pal_session_groups_get_model (self->groups), position);

  if (PAL_IS_SESSION_RECORD (item))
    g_signal_emit (self, signals[SESSION_ACTIVATED], 0,
                   pal_session_record_get_key (PAL_SESSION_RECORD (item)));
}

/* F2 renames, Delete removes from the list, Menu or Shift+F10 opens the
 * row's menu: the keyboard reaches everything the row menu offers. */
static gboolean
list_key_pressed_cb (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     PalSidebar            *self)
{
  g_autoptr(GObject) item = NULL;
  g_autoptr(GVariant) target = NULL;
  guint position = gtk_single_selection_get_selected (self->selection);
  PalSessionKey *key;
  PalSessionRow *row;

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  item = g_list_model_get_item (pal_session_groups_get_model (self->groups), position);
  if (!PAL_IS_SESSION_RECORD (item))
    return FALSE;
  key = pal_session_record_get_key (PAL_SESSION_RECORD (item));
  /* ours to free: a widget's action does not sink the floating parameter
   * it is activated with (GTK 4.8) */
  target = g_variant_ref_sink (pal_session_key_to_variant (key));

  switch (keyval)
    {
    case GDK_KEY_F2:
      return gtk_widget_activate_action_variant (GTK_WIDGET (self), "win.rename-session", target);
    case GDK_KEY_Delete:
    case GDK_KEY_KP_Delete:
      return gtk_widget_activate_action_variant (GTK_WIDGET (self), "win.forget-session", target);
    case GDK_KEY_Menu:
      row = g_hash_table_lookup (self->rows, key);
      return row != NULL && pal_session_row_popup_menu (row);
    case GDK_KEY_F10:
      row = g_hash_table_lookup (self->rows, key);
      return (state & GDK_SHIFT_MASK) != 0 && row != NULL && pal_session_row_popup_menu (row);
    default:
      return FALSE;
    }
}

static void
stop_letting_in (PalSidebar *self)
{
  if (self->let_in_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->list_view), self->let_in_id);
      self->let_in_id = 0;
    }
}

static void
let_in_all (PalSidebar *self)
{
  stop_letting_in (self);
  gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
}

/* Runs at the start of each frame of the list view: the first one paints
 * what it has, each later one lets in more. */
static gboolean
let_in_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  PalSidebar *self = user_data;
  guint size = gtk_slice_list_model_get_size (self->slice);
  guint n_items = g_list_model_get_n_items (pal_session_groups_get_model (self->groups));

  if (!self->painted)
    {
      self->painted = TRUE;
      return G_SOURCE_CONTINUE;
    }

  if (size >= LIST_VIEW_ROWS || size + ITEMS_PER_FRAME >= n_items)
    {
      self->let_in_id = 0;
      gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
      return G_SOURCE_REMOVE;
    }

  gtk_slice_list_model_set_size (self->slice, size + ITEMS_PER_FRAME);
  return G_SOURCE_CONTINUE;
}

static gboolean
tick_cb (gpointer user_data)
{
  PalSidebar *self = user_data;
  GHashTableIter iter;
  gpointer row;
  gint64 now = g_get_real_time ();

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    pal_session_row_update_time (row, now);

  return G_SOURCE_CONTINUE;
}

static void
pal_sidebar_dispose (GObject *object)
{
  PalSidebar *self = PAL_SIDEBAR (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  stop_letting_in (self);
  if (self->groups != NULL)
    g_signal_handlers_disconnect_by_data (pal_session_groups_get_model (self->groups), self);
  g_clear_object (&self->selection);
  g_clear_object (&self->slice);
  g_clear_object (&self->groups);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->session_store);
  if (self->agent_store != NULL)
    g_signal_handlers_disconnect_by_data (self->agent_store, self);
  g_clear_object (&self->agent_store);
  if (self->live_sessions != NULL)
    g_signal_handlers_disconnect_by_data (self->live_sessions, self);
  g_clear_object (&self->live_sessions);
  g_clear_pointer (&self->rows, g_hash_table_unref);

  G_OBJECT_CLASS (pal_sidebar_parent_class)->dispose (object);
}

static void
pal_sidebar_finalize (GObject *object)
{
  PalSidebar *self = PAL_SIDEBAR (object);

  g_free (self->search);
  g_clear_pointer (&self->selected, pal_session_key_unref);

  G_OBJECT_CLASS (pal_sidebar_parent_class)->finalize (object);
}

static void
pal_sidebar_class_init (PalSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_sidebar_dispose;
  object_class->finalize = pal_sidebar_finalize;

  /**
   * PalSidebar::session-activated:
   * @key: the session the person chose
   */
  signals[SESSION_ACTIVATED] =
    g_signal_new ("session-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  PAL_TYPE_SESSION_KEY | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_css_name (widget_class, "sidebar");
}

static void
pal_sidebar_init (PalSidebar *self)
{
  self->rows = g_hash_table_new_full (pal_session_key_hash, pal_session_key_equal,
                                      (GDestroyNotify) pal_session_key_unref, NULL);
}

/**
 * pal_sidebar_new:
 * @session_store: the sessions
 * @agent_store: (nullable): for agent names
 *
 * Returns: (transfer floating): a new sidebar
 */
GtkWidget *
pal_sidebar_new (PalSessionStore *session_store,
                 PalAgentStore   *agent_store)
{
  PalSidebar *self;
  GtkListItemFactory *factory;
  GtkWidget *box, *scroller, *search_box;

  g_return_val_if_fail (PAL_IS_SESSION_STORE (session_store), NULL);

  self = g_object_new (PAL_TYPE_SIDEBAR, NULL);
  self->session_store = g_object_ref (session_store);
  self->agent_store = agent_store != NULL ? g_object_ref (agent_store) : NULL;
  if (agent_store != NULL)
    g_signal_connect_swapped (agent_store, "items-changed", G_CALLBACK (refresh_agent_names), self);

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (session_store)), NULL);
  self->groups = pal_session_groups_new (G_LIST_MODEL (self->filtered));
  self->slice = gtk_slice_list_model_new (g_object_ref (pal_session_groups_get_model (self->groups)),
                                          0, FIRST_ITEMS);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->slice)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (pal_session_groups_get_model (self->groups), "items-changed",
                    G_CALLBACK (groups_changed_cb), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);

  self->list_view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                                      factory));
  gtk_widget_add_css_class (GTK_WIDGET (self->list_view), "navigation-sidebar");
  g_signal_connect (self->list_view, "activate", G_CALLBACK (list_activate_cb), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    g_signal_connect (keys, "key-pressed", G_CALLBACK (list_key_pressed_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self->list_view), keys);
  }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Sessions"), -1);
  self->let_in_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view), let_in_tick_cb,
                                                  self, NULL);

  self->search_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search_entry, "placeholder-text", _("Search sessions"), NULL);
  pal_a11y_set_label (GTK_WIDGET (self->search_entry), _("Search sessions"));
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  search_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (search_box, 6);
  gtk_widget_set_margin_end (search_box, 6);
  gtk_widget_set_margin_top (search_box, 6);
  gtk_widget_set_margin_bottom (search_box, 6);
  gtk_box_append (GTK_BOX (search_box), GTK_WIDGET (self->search_entry));

  /* what was typed, looked for in the messages of every session */
  {
    GtkWidget *content = adw_button_content_new ();

    adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), "edit-find-symbolic");
    adw_button_content_set_label (ADW_BUTTON_CONTENT (content), _("Search in _Messages"));
    adw_button_content_set_use_underline (ADW_BUTTON_CONTENT (content), TRUE);
    self->messages_button = gtk_button_new ();
    gtk_button_set_child (GTK_BUTTON (self->messages_button), content);
    gtk_widget_add_css_class (self->messages_button, "flat");
    gtk_widget_set_halign (self->messages_button, GTK_ALIGN_START);
    gtk_widget_set_margin_top (self->messages_button, 6);
    gtk_widget_set_tooltip_text (self->messages_button,
                                 _("Search the messages of every session (Ctrl+Shift+F)"));
    gtk_actionable_set_action_name (GTK_ACTIONABLE (self->messages_button), "win.search-history");
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->messages_button),
                                            g_variant_new_string (""));
    self->messages_revealer = GTK_REVEALER (gtk_revealer_new ());
    gtk_revealer_set_child (self->messages_revealer, self->messages_button);
    gtk_box_append (GTK_BOX (search_box), GTK_WIDGET (self->messages_revealer));
  }

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->list_view));

  self->empty_page = ADW_STATUS_PAGE (adw_status_page_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->empty_page), "compact");

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->stack, scroller, "list");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->empty_page), "empty");
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), search_box);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  adw_bin_set_child (ADW_BIN (self), box);

  /* relative times move on */
  self->tick_id = g_timeout_add_seconds (60, tick_cb, self);

  update_empty (self);

  return GTK_WIDGET (self);
}

/**
 * pal_sidebar_set_live_sessions:
 * @self: a #PalSidebar
 * @live_sessions: (nullable): a #GListModel of #PalLiveSession: the
 *   sessions that are live (pal_session_manager_get_live_sessions())
 *
 * The rows follow the states of these.
 */
void
pal_sidebar_set_live_sessions (PalSidebar *self,
                               GListModel *live_sessions)
{
  g_return_if_fail (PAL_IS_SIDEBAR (self));
  g_return_if_fail (live_sessions == NULL || G_IS_LIST_MODEL (live_sessions));

  if (self->live_sessions == live_sessions)
    return;

  if (self->live_sessions != NULL)
    g_signal_handlers_disconnect_by_data (self->live_sessions, self);
  g_set_object (&self->live_sessions, live_sessions);
  if (live_sessions != NULL)
    g_signal_connect_swapped (live_sessions, "items-changed",
                              G_CALLBACK (live_sessions_changed_cb), self);

  live_sessions_changed_cb (self);
}

/**
 * pal_sidebar_set_can_func:
 * @self: a #PalSidebar
 * @func: (nullable): tells which session actions are possible, for row menus
 * @user_data: for @func; must outlive the sidebar
 */
void
pal_sidebar_set_can_func (PalSidebar            *self,
                          PalSessionMenuCanFunc  func,
                          gpointer               user_data)
{
  GHashTableIter iter;
  gpointer row;

  g_return_if_fail (PAL_IS_SIDEBAR (self));

  self->can_func = func;
  self->can_data = user_data;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    pal_session_row_set_can_func (row, func, user_data);
}

/**
 * pal_sidebar_select:
 * @self: a #PalSidebar
 * @key: (nullable): the session to highlight
 */
void
pal_sidebar_select (PalSidebar    *self,
                    PalSessionKey *key)
{
  GListModel *model;
  guint n;

  g_return_if_fail (PAL_IS_SIDEBAR (self));

  if (self->selected != key)
    {
      g_clear_pointer (&self->selected, pal_session_key_unref);
      self->selected = key != NULL ? pal_session_key_ref (key) : NULL;
    }

  model = pal_session_groups_get_model (self->groups);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; key != NULL && i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (PAL_IS_SESSION_RECORD (item) &&
          pal_session_key_equal (pal_session_record_get_key (PAL_SESSION_RECORD (item)), key))
        {
          if (i >= gtk_slice_list_model_get_size (self->slice))
            let_in_all (self);
          if (gtk_single_selection_get_selected (self->selection) != i)
            gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }

  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

/**
 * pal_sidebar_activate_adjacent:
 * @self: a #PalSidebar
 * @step: 1 for the session below the selected one, -1 for the one above
 *
 * Activates the session shown next to the selected one (the first or the
 * last shown, when none is selected), as choosing it in the list does.
 *
 * Returns: whether there was one to activate
 */
gboolean
pal_sidebar_activate_adjacent (PalSidebar *self,
                               int         step)
{
  GListModel *model;
  guint selected;
  int n, i;

  g_return_val_if_fail (PAL_IS_SIDEBAR (self), FALSE);
  g_return_val_if_fail (step == 1 || step == -1, FALSE);

  model = G_LIST_MODEL (self->selection);
  n = (int) g_list_model_get_n_items (model);
  selected = gtk_single_selection_get_selected (self->selection);
  if (selected == GTK_INVALID_LIST_POSITION)
    i = step > 0 ? -1 : n;
  else
    i = (int) selected;

  for (i += step; i >= 0 && i < n; i += step)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, (guint) i);

      if (PAL_IS_SESSION_RECORD (item))
        {
          g_signal_emit (self, signals[SESSION_ACTIVATED], 0,
                         pal_session_record_get_key (PAL_SESSION_RECORD (item)));
          return TRUE;
        }
    }

  return FALSE;
}

void
pal_sidebar_focus_search (PalSidebar *self)
{
  g_return_if_fail (PAL_IS_SIDEBAR (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
pal_sidebar_set_search_text (PalSidebar *self,
                             const char *text)
{
  g_return_if_fail (PAL_IS_SIDEBAR (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  /* apply now rather than after the entry's delay */
  search_changed_cb (self->search_entry, self);
}

/**
 * pal_sidebar_get_n_shown:
 * @self: a #PalSidebar
 *
 * Returns: how many sessions the list shows (folders not counted)
 */
guint
pal_sidebar_get_n_shown (PalSidebar *self)
{
  g_return_val_if_fail (PAL_IS_SIDEBAR (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

/**
 * pal_sidebar_get_row:
 * @self: a #PalSidebar
 * @key: a session
 *
 * Returns: (transfer none) (nullable): the row of @key, if on screen
 */
PalSessionRow *
pal_sidebar_get_row (PalSidebar    *self,
                     PalSessionKey *key)
{
  g_return_val_if_fail (PAL_IS_SIDEBAR (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->rows, key);
}
