/* pal-session-row.c: one session in the sidebar
 *
 * Title, then "agent · time" (the folder is the group's header; more
 * folders than that one are counted at the end), a pin when the session
 * is pinned, and the live state at the end: a
 * spinner while the agent starts, loads or works, an icon while it waits
 * for the person or has failed. The state and the spinner are bound to the
 * row's live session (a GBindingGroup: the sidebar gives a row another one
 * as it shows another session). The menu holds the session's actions, as
 * win.* actions that take the session's key. A click on the row, but not on
 * its menu button, emits "activated".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-a11y.h"
#include "pal-path.h"
#include "pal-session-menu.h"
#include "pal-session-row.h"
#include "pal-tooltip.h"

struct _PalSessionRow
{
  GtkWidget         parent_instance;

  PalSessionRecord *record;
  char             *agent_name;
  PalLiveSession   *live;
  GBindingGroup    *live_bindings;  /* live → state, busy */
  PalSessionState   state;
  gboolean          busy;

  GtkWidget        *box;
  GtkLabel         *title_label;
  GtkLabel         *subtitle_label;
  GtkImage         *pin_image;
  GtkSpinner       *spinner;
  GtkImage         *state_image;
  GtkMenuButton    *menu_button;

  PalSessionMenuCanFunc can_func;
  gpointer              can_data;
};

G_DEFINE_FINAL_TYPE (PalSessionRow, pal_session_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LIVE_SESSION,
  PROP_STATE,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * pal_format_relative_time:
 * @then: a time, in microseconds since the epoch
 * @now: the present, likewise
 *
 * Returns: (transfer full): “Just now”, “5 min ago”, “Yesterday”, a weekday
 *   or a date
 */
char *
pal_format_relative_time (gint64 then,
                          gint64 now)
{
  g_autoptr(GDateTime) then_dt = NULL;
  g_autoptr(GDateTime) now_dt = NULL;
  gint64 seconds = (now - then) / G_USEC_PER_SEC;
  int days;

  if (then <= 0)
    return g_strdup ("");
  if (seconds < 60)
    return g_strdup (_("Just now"));
  if (seconds < 3600)
    return g_strdup_printf (ngettext ("%d min ago", "%d min ago", (int) (seconds / 60)),
                            (int) (seconds / 60));

  then_dt = g_date_time_new_from_unix_local (then / G_USEC_PER_SEC);
  now_dt = g_date_time_new_from_unix_local (now / G_USEC_PER_SEC);
  if (then_dt == NULL || now_dt == NULL)
    return g_strdup ("");

  days = g_date_time_get_day_of_year (now_dt) - g_date_time_get_day_of_year (then_dt) +
         365 * (g_date_time_get_year (now_dt) - g_date_time_get_year (then_dt));

  if (days <= 0)
    /* Translators: a time of today, as in “14:05” */
    return g_date_time_format (then_dt, _("%H:%M"));
  if (days == 1)
    return g_strdup (_("Yesterday"));
  if (days < 7)
    return g_date_time_format (then_dt, "%A");
  if (g_date_time_get_year (now_dt) == g_date_time_get_year (then_dt))
    /* Translators: a date of this year, as in “Mar 5” */
    return g_date_time_format (then_dt, _("%b %-e"));

  /* Translators: a date of another year, as in “Mar 5, 2025” */
  return g_date_time_format (then_dt, _("%b %-e, %Y"));
}

/**
 * pal_format_session_folder:
 * @record: a session
 *
 * Returns: (transfer full): the name of the session's project folder, and
 *   how many additional folders it has, as in “app +2”
 */
char *
pal_format_session_folder (PalSessionRecord *record)
{
  g_autofree char *name = g_path_get_basename (pal_session_record_get_cwd (record));
  guint n_more = g_strv_length ((char **) pal_session_record_get_additional_directories (record));

  if (n_more == 0)
    return g_steal_pointer (&name);

  /* TRANSLATORS: a project folder's name and how many more folders the
   * session has, as in “app +2” */
  return g_strdup_printf (_("%s +%u"), name, n_more);
}

/**
 * pal_describe_session_folders:
 * @record: a session
 *
 * Returns: (transfer full): the session's project folder, and its
 *   additional folders on a second line, for a tooltip
 */
char *
pal_describe_session_folders (PalSessionRecord *record)
{
  const char * const *more = pal_session_record_get_additional_directories (record);
  const char *home = g_get_home_dir ();
  g_autofree char *project = pal_path_display (pal_session_record_get_cwd (record), NULL, home);
  g_autoptr(GString) list = NULL;

  if (more[0] == NULL)
    return g_steal_pointer (&project);

  list = g_string_new (NULL);
  for (guint i = 0; more[i] != NULL; i++)
    {
      g_autofree char *shown = pal_path_display (more[i], NULL, home);

      if (i > 0)
        /* TRANSLATORS: between folders in a list */
        g_string_append (list, _(", "));
      g_string_append (list, shown);
    }

  /* TRANSLATORS: a tooltip; the first %s is a folder, the second a list of folders */
  return g_strdup_printf (_("Project folder: %s\nAdditional folders: %s"), project, list->str);
}

/**
 * pal_describe_session_state:
 * @state: a #PalSessionState
 *
 * Returns: the state in words
 */
const char *
pal_describe_session_state (PalSessionState state)
{
  switch (state)
    {
    case PAL_SESSION_STATE_STARTING_AGENT:
      return _("Starting the agent");
    case PAL_SESSION_STATE_LOADING:
      return _("Loading");
    case PAL_SESSION_STATE_READY:
      return _("Ready");
    case PAL_SESSION_STATE_WORKING:
      return _("Working");
    case PAL_SESSION_STATE_WAITING_PERMISSION:
      return _("Waiting for permission");
    case PAL_SESSION_STATE_STOPPING:
      return _("Stopping…");
    case PAL_SESSION_STATE_FAILED:
      return _("Failed");
    case PAL_SESSION_STATE_NOT_RUNNING:
    default:
      return _("Not running");
    }
}

static void
set_state (PalSessionRow   *self,
           PalSessionState  state)
{
  const char *icon = NULL;

  if (self->state == state)
    return;
  self->state = state;

  if (state == PAL_SESSION_STATE_WAITING_PERMISSION)
    icon = "dialog-question-symbolic";
  else if (state == PAL_SESSION_STATE_FAILED)
    icon = "dialog-error-symbolic";
  else if (state == PAL_SESSION_STATE_READY)
    icon = "media-record-symbolic";

  gtk_widget_set_visible (GTK_WIDGET (self->state_image), icon != NULL);
  if (icon != NULL)
    gtk_image_set_from_icon_name (self->state_image, icon);

  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->spinner), pal_describe_session_state (state));
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->state_image), pal_describe_session_state (state));

  gtk_widget_remove_css_class (GTK_WIDGET (self), "waiting");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "failed");
  gtk_widget_remove_css_class (GTK_WIDGET (self), "ready");
  if (state == PAL_SESSION_STATE_WAITING_PERMISSION)
    gtk_widget_add_css_class (GTK_WIDGET (self), "waiting");
  else if (state == PAL_SESSION_STATE_FAILED)
    gtk_widget_add_css_class (GTK_WIDGET (self), "failed");
  else if (state == PAL_SESSION_STATE_READY)
    gtk_widget_add_css_class (GTK_WIDGET (self), "ready");

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* The agent is at work: the spinner turns. */
static void
set_busy (PalSessionRow *self,
          gboolean       busy)
{
  busy = !!busy;
  if (self->busy == busy)
    return;
  self->busy = busy;

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_BUSY, busy, -1);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* what a screen reader says of the row: its title, then the line under it */
static void
update_name (PalSessionRow *self)
{
  g_autofree char *name = g_strdup_printf ("%s, %s", gtk_label_get_text (self->title_label),
                                           gtk_label_get_text (self->subtitle_label));

  pal_a11y_set_label (GTK_WIDGET (self), name);
}

static void
update_title (PalSessionRow *self)
{
  const char *title = self->record != NULL ? pal_session_record_get_title (self->record) : NULL;

  if (title == NULL || *title == '\0')
    {
      gtk_label_set_text (self->title_label, _("New Session"));
      gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "dim-label");
    }
  else
    {
      gtk_label_set_text (self->title_label, title);
      gtk_widget_remove_css_class (GTK_WIDGET (self->title_label), "dim-label");
    }
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->title_label), gtk_label_get_text (self->title_label));
  gtk_widget_set_visible (GTK_WIDGET (self->pin_image),
                          self->record != NULL && pal_session_record_get_pinned (self->record));
  update_name (self);
}

/**
 * pal_session_row_update_time:
 * @self: a #PalSessionRow
 * @now: the present, in microseconds since the epoch
 *
 * Refreshes the subtitle (the relative time in it moves on).
 */
void
pal_session_row_update_time (PalSessionRow *self,
                             gint64         now)
{
  g_autoptr(GString) subtitle = g_string_new (NULL);
  g_autofree char *folders = NULL;
  g_autofree char *when = NULL;
  const char * const *more;
  guint n_more;

  g_return_if_fail (PAL_IS_SESSION_ROW (self));

  if (self->record == NULL)
    return;

  folders = pal_describe_session_folders (self->record);
  when = pal_format_relative_time (pal_session_record_get_updated (self->record), now);
  more = pal_session_record_get_additional_directories (self->record);
  n_more = more != NULL ? g_strv_length ((char **) more) : 0;

  /* the folder is the header of the row's group: the row names the rest */
  if (self->agent_name != NULL)
    g_string_append (subtitle, self->agent_name);
  if (*when != '\0')
    g_string_append_printf (subtitle, "%s%s", subtitle->len > 0 ? " · " : "", when);
  if (n_more > 0)
    {
      /* Translators: how many folders a session has besides its project folder */
      g_autofree char *count = g_strdup_printf (ngettext ("+%u folder", "+%u folders", n_more), n_more);

      g_string_append_printf (subtitle, "%s%s", subtitle->len > 0 ? " · " : "", count);
    }
  if (pal_session_record_get_from_agent (self->record))
    /* Translators: marks a session found in the agent's own list */
    g_string_append_printf (subtitle, "%s%s", subtitle->len > 0 ? " · " : "", _("from the agent"));

  gtk_label_set_text (self->subtitle_label, subtitle->str);
  update_name (self);
  /* every folder of the session, in full */
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->subtitle_label), folders);
}

static void
record_notify_cb (PalSessionRecord *record,
                  GParamSpec       *pspec,
                  PalSessionRow    *self)
{
  update_title (self);
  pal_session_row_update_time (self, g_get_real_time ());
}

static void
menu_button_activate_cb (GtkMenuButton *button,
                         PalSessionRow *self)
{
  if (self->record == NULL)
    return;

  /* made when first opened: the list builds rows by the hundred, and a
   * menu is a dozen widgets */
  if (gtk_menu_button_get_popover (button) == NULL)
    {
      gtk_menu_button_set_popover (button, pal_session_menu_new ());
      pal_menu_button_hide_tooltip_while_open (button);
    }

  /* brought up to date when opened: pin label and what the agent can do */
  pal_session_menu_update (GTK_WIDGET (gtk_menu_button_get_popover (button)),
                           pal_session_record_get_key (self->record),
                           pal_session_record_get_pinned (self->record),
                           self->can_func, self->can_data);
}

static void
pal_session_row_dispose (GObject *object)
{
  PalSessionRow *self = PAL_SESSION_ROW (object);

  if (self->record != NULL)
    g_signal_handlers_disconnect_by_data (self->record, self);
  g_clear_object (&self->record);
  if (self->live_bindings != NULL)
    g_binding_group_set_source (self->live_bindings, NULL);
  g_clear_object (&self->live_bindings);
  g_clear_object (&self->live);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (pal_session_row_parent_class)->dispose (object);
}

static void
pal_session_row_finalize (GObject *object)
{
  PalSessionRow *self = PAL_SESSION_ROW (object);

  g_free (self->agent_name);

  G_OBJECT_CLASS (pal_session_row_parent_class)->finalize (object);
}

static void
pal_session_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PalSessionRow *self = PAL_SESSION_ROW (object);

  switch (prop_id)
    {
    case PROP_LIVE_SESSION:
      g_value_set_object (value, self->live);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_row_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PalSessionRow *self = PAL_SESSION_ROW (object);

  switch (prop_id)
    {
    case PROP_LIVE_SESSION:
      pal_session_row_set_live_session (self, g_value_get_object (value));
      break;
    case PROP_STATE:
      set_state (self, g_value_get_enum (value));
      break;
    case PROP_BUSY:
      set_busy (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_session_row_class_init (PalSessionRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_session_row_dispose;
  object_class->finalize = pal_session_row_finalize;
  object_class->get_property = pal_session_row_get_property;
  object_class->set_property = pal_session_row_set_property;

  /* The session while it is live, or %NULL: the row follows its state. */
  properties[PROP_LIVE_SESSION] =
    g_param_spec_object ("live-session", NULL, NULL, PAL_TYPE_LIVE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* What the row shows of the state: bound to the live session's. */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, PAL_TYPE_SESSION_STATE,
                       PAL_SESSION_STATE_NOT_RUNNING,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether the spinner turns: bound to the live session's "busy". */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sessionrow");

  /**
   * PalSessionRow::activated:
   *
   * The row was clicked, elsewhere than on its menu button.
   */
  signals[ACTIVATED] =
    g_signal_new ("activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

/* A list view that activates its rows on a single click would also take a
 * click on the menu button for one on the row, and open the session rather
 * than the menu: the row tells the two apart itself. */
static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   PalSessionRow   *self)
{
  GtkWidget *target = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  GtkWidget *menu_button = GTK_WIDGET (self->menu_button);

  if (n_press != 1 || target == NULL ||
      target == menu_button || gtk_widget_is_ancestor (target, menu_button))
    return;

  g_signal_emit (self, signals[ACTIVATED], 0);
}

static void
pal_session_row_init (PalSessionRow *self)
{
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkGesture *click;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_margin_top (self->box, 6);
  gtk_widget_set_margin_bottom (self->box, 6);
  gtk_widget_set_margin_start (self->box, 6);

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_END);
  self->subtitle_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->subtitle_label, 0);
  gtk_label_set_ellipsize (self->subtitle_label, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->subtitle_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->subtitle_label), "dim-label");
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->subtitle_label));
  gtk_widget_set_hexpand (texts, TRUE);

  self->pin_image = GTK_IMAGE (gtk_image_new_from_icon_name ("view-pin-symbolic"));
  gtk_widget_add_css_class (GTK_WIDGET (self->pin_image), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->pin_image), FALSE);
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->pin_image), _("Pinned"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->pin_image),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pinned"), -1);

  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  self->state_image = GTK_IMAGE (gtk_image_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->state_image), "state-icon");

  self->menu_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_icon_name (self->menu_button, "view-more-symbolic");
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->menu_button), _("Session Menu"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Session Menu"), -1);
  gtk_widget_set_valign (GTK_WIDGET (self->menu_button), GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->menu_button), "flat");
  /* the menu itself comes when first opened (menu_button_activate_cb) */
  gtk_menu_button_set_create_popup_func (self->menu_button,
                                         (GtkMenuButtonCreatePopupFunc) menu_button_activate_cb,
                                         self, NULL);

  gtk_box_append (GTK_BOX (self->box), texts);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->pin_image));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->state_image));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->menu_button));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  /* not running until it has a live session */
  self->state = PAL_SESSION_STATE_NOT_RUNNING;
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->state_image), FALSE);
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->spinner),
                                pal_describe_session_state (PAL_SESSION_STATE_NOT_RUNNING));
  pal_widget_set_quiet_tooltip (GTK_WIDGET (self->state_image),
                                pal_describe_session_state (PAL_SESSION_STATE_NOT_RUNNING));

  self->live_bindings = g_binding_group_new ();
  g_binding_group_bind (self->live_bindings, "state", self, "state", G_BINDING_SYNC_CREATE);
  g_binding_group_bind (self->live_bindings, "busy", self, "busy", G_BINDING_SYNC_CREATE);
}

GtkWidget *
pal_session_row_new (void)
{
  return g_object_new (PAL_TYPE_SESSION_ROW, NULL);
}

PalSessionRecord *
pal_session_row_get_record (PalSessionRow *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_ROW (self), NULL);

  return self->record;
}

/**
 * pal_session_row_set_record:
 * @self: a #PalSessionRow
 * @record: (nullable): the session to show
 * @agent_name: (nullable): the name of its agent profile
 */
void
pal_session_row_set_record (PalSessionRow    *self,
                            PalSessionRecord *record,
                            const char       *agent_name)
{
  g_return_if_fail (PAL_IS_SESSION_ROW (self));

  /* the sidebar gives its rows other sessions: an open menu was for this one */
  if (record != self->record)
    gtk_menu_button_popdown (self->menu_button);

  if (self->record != NULL)
    g_signal_handlers_disconnect_by_data (self->record, self);
  g_set_object (&self->record, record);
  g_free (self->agent_name);
  self->agent_name = g_strdup (agent_name);

  /* without a session the row is not shown: its labels can wait */
  if (record == NULL)
    return;

  g_signal_connect (record, "notify", G_CALLBACK (record_notify_cb), self);
  update_title (self);
  pal_session_row_update_time (self, g_get_real_time ());
}

/**
 * pal_session_row_get_live_session:
 * @self: a #PalSessionRow
 *
 * Returns: (transfer none) (nullable): the live session the row follows
 */
PalLiveSession *
pal_session_row_get_live_session (PalSessionRow *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_ROW (self), NULL);

  return self->live;
}

/**
 * pal_session_row_set_live_session:
 * @self: a #PalSessionRow
 * @live: (nullable): the live session of the row's session; %NULL when it
 *   is not live
 *
 * The row's state and spinner follow @live from now on.
 */
void
pal_session_row_set_live_session (PalSessionRow  *self,
                                  PalLiveSession *live)
{
  g_return_if_fail (PAL_IS_SESSION_ROW (self));
  g_return_if_fail (live == NULL || PAL_IS_LIVE_SESSION (live));

  if (!g_set_object (&self->live, live))
    return;

  g_binding_group_set_source (self->live_bindings, live);
  /* the bindings went with the old one, and left what it said */
  if (live == NULL)
    {
      set_state (self, PAL_SESSION_STATE_NOT_RUNNING);
      set_busy (self, FALSE);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE_SESSION]);
}

PalSessionState
pal_session_row_get_state (PalSessionRow *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_ROW (self), PAL_SESSION_STATE_NOT_RUNNING);

  return self->state;
}

/**
 * pal_session_row_set_can_func:
 * @self: a #PalSessionRow
 * @func: (nullable): tells which session actions are possible
 * @user_data: for @func; must outlive the row
 */
void
pal_session_row_set_can_func (PalSessionRow         *self,
                              PalSessionMenuCanFunc  func,
                              gpointer               user_data)
{
  g_return_if_fail (PAL_IS_SESSION_ROW (self));

  self->can_func = func;
  self->can_data = user_data;
}

/**
 * pal_session_row_popup_menu:
 * @self: a #PalSessionRow
 *
 * Opens the row's menu, as its button does.
 *
 * Returns: whether the menu opened
 */
gboolean
pal_session_row_popup_menu (PalSessionRow *self)
{
  g_return_val_if_fail (PAL_IS_SESSION_ROW (self), FALSE);

  if (self->record == NULL)
    return FALSE;

  gtk_menu_button_popup (self->menu_button);
  return TRUE;
}
