/* pal-composer.c: where the person writes a prompt
 *
 * A multi-line text view: Enter sends, Shift+Enter breaks the line. While a
 * turn runs, Send becomes Stop, and Enter sends only when the session view
 * says the prompt can wait for the turn's end ("can-send"). Up in an empty
 * composer recalls the previous prompts of the session, the user messages of
 * the transcript given with pal_composer_set_recall_model(), newest first;
 * Down goes forward again, as a shell does (in a recalled prompt of several
 * lines, from its first or last line).
 * Typing "/" at the start offers the agent's
 * commands (the AcpCommand items of "commands"); Up/Down pick, Tab or Enter
 * complete, Escape closes. When the session offers config options (or, for
 * older agents, modes) a selector for each sits beside the buttons, in a
 * PalOptionsBar. Typing "@" finds a file or folder of the session's
 * folders and puts it in the text as a chip (PalMentionFinder).
 *
 * Above the text, a row of chips (PalAttachmentBar) shows what is
 * attached: files and folders dropped on the composer or chosen with the
 * Attach button, images pasted; PalAttacher brings them in (asking first
 * for a file outside the session's folders, scaling images down). They go
 * with the text in the PalPrompt it hands over. Told the agent's
 * capabilities, it marks the images an agent without `image` will not
 * get.
 *
 * The composer knows nothing of sessions: it emits "submit" and "stop", its
 * options bar "config-option-changed" and "mode-changed", and the session
 * view acts on them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "acp-command.h"
#include "pal-attacher.h"
#include "pal-attachment-bar.h"

#include "acp-message-item.h"
#include "pal-composer.h"
#include "pal-mention-finder.h"
#include "pal-picker-keys.h"

struct _PalComposer
{
  AdwBin          parent_instance;

  GtkTextView    *text_view;
  GtkWidget      *placeholder;   /* over the empty text view */
  GtkButton      *send_button;
  GtkButton      *stop_button;
  PalOptionsBar  *options_bar;
  GtkPopover     *completion_popover;
  GtkListBox     *completion_list;
  GListStore     *attachments;   /* PalAttachment */
  PalAttachmentBar *attachment_bar;
  GtkButton      *attach_button;
  PalAttacher    *attacher;
  PalMentionFinder *mentions;
  char          **folders;       /* the session's, or NULL */

  GListModel     *commands;
  /* the prompts Up and Down recall: the user messages among these items */
  GListModel     *recall_model;
  guint           recall_position;  /* the item recalled */
  char           *recall_text;      /* its text, while it is what is written */
  gboolean        busy;
  gboolean        can_send;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_CAN_SEND,
  PROP_COMMANDS,
  N_PROPS
};

enum {
  SUBMIT,
  STOP,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalComposer, pal_composer, ADW_TYPE_BIN)

static void
update_buttons (PalComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  gboolean has_text = gtk_text_buffer_get_char_count (buffer) > 0;
  gboolean has_attachments = g_list_model_get_n_items (G_LIST_MODEL (self->attachments)) > 0;

  gtk_widget_set_visible (self->placeholder, !has_text);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), self->busy);
  gtk_widget_set_visible (GTK_WIDGET (self->send_button), !self->busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->send_button),
                            (has_text || has_attachments) && self->can_send);
}

/* The "/word" being typed at the very start, or NULL. */
static char *
dup_command_prefix (PalComposer *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);

  if (text[0] != '/' || strpbrk (text, " \t\n") != NULL)
    return NULL;

  return g_steal_pointer (&text);
}

static void
hide_completion (PalComposer *self)
{
  if (gtk_widget_get_visible (GTK_WIDGET (self->completion_popover)))
    gtk_popover_popdown (self->completion_popover);
}

static void
update_completion (PalComposer *self)
{
  g_autofree char *prefix = dup_command_prefix (self);
  guint n = self->commands != NULL ? g_list_model_get_n_items (self->commands) : 0;
  GtkWidget *child;
  guint shown = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->completion_list))) != NULL)
    gtk_list_box_remove (self->completion_list, child);

  if (prefix == NULL || n == 0)
    {
      hide_completion (self);
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpCommand) command = g_list_model_get_item (self->commands, i);
      const char *name = acp_command_get_name (command);
      const char *description = acp_command_get_description (command);
      g_autofree char *title = NULL;
      GtkWidget *row, *box, *label;

      if (!g_str_has_prefix (name, prefix + 1))
        continue;

      title = g_strdup_printf ("/%s", name);
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      label = gtk_label_new (title);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (box), label);
      label = gtk_label_new (description);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);

      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data_full (G_OBJECT (row), "command-name", g_strdup (name), g_free);
      gtk_list_box_append (self->completion_list, row);
      shown++;
    }

  if (shown == 0)
    {
      hide_completion (self);
      return;
    }

  gtk_list_box_select_row (self->completion_list, gtk_list_box_get_row_at_index (self->completion_list, 0));
  if (!gtk_widget_get_visible (GTK_WIDGET (self->completion_popover)))
    gtk_popover_popup (self->completion_popover);
}

static void
complete_with_row (PalComposer   *self,
                   GtkListBoxRow *row)
{
  const char *name = g_object_get_data (G_OBJECT (row), "command-name");
  g_autofree char *text = g_strdup_printf ("/%s ", name);

  hide_completion (self);
  pal_composer_set_text (self, text);
  gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

static void
completion_row_activated_cb (GtkListBox    *list,
                             GtkListBoxRow *row,
                             PalComposer   *self)
{
  complete_with_row (self, row);
}

static void
forget_recall (PalComposer *self)
{
  g_clear_pointer (&self->recall_text, g_free);
}

/* The text of a prompt among the recalled items, or NULL */
static const char *
prompt_text_at (PalComposer *self,
                guint        position,
                GObject    **item)
{
  const char *text;

  *item = g_list_model_get_item (self->recall_model, position);
  if (!ACP_IS_MESSAGE_ITEM (*item) ||
      acp_message_item_get_role (ACP_MESSAGE_ITEM (*item)) != ACP_MESSAGE_ROLE_USER)
    return NULL;

  text = acp_message_item_get_text (ACP_MESSAGE_ITEM (*item));
  return text != NULL && *text != '\0' ? text : NULL;
}

/* Up (@older) or Down: the previous or next prompt of the session, when the
 * composer is empty or shows a recalled prompt untouched, from its first
 * (Up) or last (Down) line. Returns: whether the key was used */
static gboolean
recall (PalComposer *self,
        gboolean     older)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  g_autofree char *text = pal_composer_dup_text (self);
  gboolean recalling = self->recall_text != NULL && g_str_equal (text, self->recall_text);
  guint n = self->recall_model != NULL ? g_list_model_get_n_items (self->recall_model) : 0;
  GtkTextIter cursor;
  guint start;

  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  if (!recalling)
    {
      forget_recall (self);
      if (!older || *text != '\0')
        return FALSE;
    }
  else if (older ? gtk_text_iter_get_line (&cursor) > 0
                 : gtk_text_iter_get_line (&cursor) < gtk_text_buffer_get_line_count (buffer) - 1)
    return FALSE;

  start = recalling ? MIN (self->recall_position, n) : n;
  for (guint k = 0; k < n; k++)
    {
      g_autoptr(GObject) item = NULL;
      const char *found;
      guint i;

      if (older ? k >= start : start + 1 + k >= n)
        break;
      i = older ? start - 1 - k : start + 1 + k;
      found = prompt_text_at (self, i, &item);
      /* the same prompt sent twice in a row is recalled once */
      if (found == NULL || (recalling && g_str_equal (found, self->recall_text)))
        continue;

      self->recall_position = i;
      g_free (self->recall_text);
      self->recall_text = g_strdup (found);
      pal_composer_set_text (self, found);
      hide_completion (self);
      return TRUE;
    }

  /* past the newest: an empty composer again; before the oldest: stays */
  if (!older)
    {
      forget_recall (self);
      pal_composer_set_text (self, NULL);
      return TRUE;
    }

  return recalling;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                PalComposer           *self)
{
  gboolean completing = gtk_widget_get_visible (GTK_WIDGET (self->completion_popover));
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;
  gboolean modified = (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0;

  if (pal_mention_finder_key_pressed (self->mentions, keyval, state))
    return TRUE;

  if (completing)
    {
      switch (pal_picker_key (self->completion_list, G_MAXUINT, keyval))
        {
        case PAL_PICKER_KEY_MOVED:
          return TRUE;
        case PAL_PICKER_KEY_CLOSE:
          hide_completion (self);
          return TRUE;
        case PAL_PICKER_KEY_CHOOSE:
          if (!modified)
            {
              complete_with_row (self, gtk_list_box_get_selected_row (self->completion_list));
              return TRUE;
            }
          break;
        case PAL_PICKER_KEY_NONE:
        default:
          break;
        }
    }

  if ((keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up) && !modified)
    return recall (self, TRUE);
  if ((keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down) && !modified)
    return recall (self, FALSE);

  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && !shift)
    {
      if (!modified || (state & GDK_CONTROL_MASK) != 0)
        {
          pal_composer_submit (self);
          return TRUE;
        }
    }

  return FALSE;
}

static void
buffer_changed_cb (GtkTextBuffer *buffer,
                   PalComposer   *self)
{
  update_buttons (self);
  update_completion (self);
}

static void
attachments_changed_cb (GListModel  *model,
                        guint        position,
                        guint        removed,
                        guint        added,
                        PalComposer *self)
{
  update_buttons (self);
}

static void
attach_clicked_cb (PalComposer *self)
{
  pal_attacher_choose_files (self->attacher);
}

/* Ctrl+V: an image is attached; text is pasted as always */
static void
paste_clipboard_cb (GtkTextView *text_view,
                    PalComposer *self)
{
  if (pal_attacher_paste (self->attacher, gtk_widget_get_clipboard (GTK_WIDGET (text_view))))
    g_signal_stop_emission_by_name (text_view, "paste-clipboard");
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         PalComposer   *self)
{
  GSList *files = g_value_get_boxed (value);

  if (files == NULL)
    return FALSE;

  pal_composer_add_files (self, files);
  return TRUE;
}

static void
send_clicked_cb (PalComposer *self)
{
  pal_composer_submit (self);
}

static void
stop_clicked_cb (PalComposer *self)
{
  g_signal_emit (self, signals[STOP], 0);
}

static void
pal_composer_dispose (GObject *object)
{
  PalComposer *self = PAL_COMPOSER (object);

  if (self->commands != NULL)
    g_signal_handlers_disconnect_by_data (self->commands, self);
  g_clear_object (&self->commands);
  g_clear_object (&self->attacher);
  if (self->attachments != NULL)
    g_signal_handlers_disconnect_by_data (self->attachments, self);
  g_clear_object (&self->attachments);

  g_clear_object (&self->recall_model);
  forget_recall (self);
  if (self->completion_popover != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->completion_popover));
      self->completion_popover = NULL;
    }
  if (self->mentions != NULL)
    pal_mention_finder_unparent (self->mentions);
  g_clear_object (&self->mentions);
  g_clear_pointer (&self->folders, g_strfreev);

  G_OBJECT_CLASS (pal_composer_parent_class)->dispose (object);
}

static void
pal_composer_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PalComposer *self = PAL_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_CAN_SEND:
      g_value_set_boolean (value, self->can_send);
      break;

    case PROP_COMMANDS:
      g_value_set_object (value, self->commands);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_composer_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  PalComposer *self = PAL_COMPOSER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      pal_composer_set_busy (self, g_value_get_boolean (value));
      break;

    case PROP_CAN_SEND:
      pal_composer_set_can_send (self, g_value_get_boolean (value));
      break;

    case PROP_COMMANDS:
      pal_composer_set_commands (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_composer_class_init (PalComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_composer_dispose;
  object_class->get_property = pal_composer_get_property;
  object_class->set_property = pal_composer_set_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_SEND] =
    g_param_spec_boolean ("can-send", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * PalComposer:commands:
   *
   * The #AcpCommand items that "/" offers; the completion follows their
   * changes.
   */
  properties[PROP_COMMANDS] =
    g_param_spec_object ("commands", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PalComposer::submit:
   * @prompt: the prompt
   *
   * The person sent a prompt. It has been cleared from the composer.
   */
  signals[SUBMIT] =
    g_signal_new ("submit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, PAL_TYPE_PROMPT);
  signals[STOP] =
    g_signal_new ("stop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "composer");
}

static void
pal_composer_init (PalComposer *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *frame = gtk_scrolled_window_new ();
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkEventController *keys;
  GtkDropTarget *drop;
  GtkTextBuffer *buffer;

  self->can_send = TRUE;
  self->attachments = g_list_store_new (PAL_TYPE_ATTACHMENT);
  self->attacher = pal_attacher_new (self->attachments, GTK_WIDGET (self));
  g_signal_connect (self->attachments, "items-changed", G_CALLBACK (attachments_changed_cb), self);
  self->attachment_bar = PAL_ATTACHMENT_BAR (pal_attachment_bar_new (self->attachments));

  self->text_view = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_wrap_mode (self->text_view, GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (self->text_view, FALSE);
  gtk_text_view_set_top_margin (self->text_view, 8);
  gtk_text_view_set_bottom_margin (self->text_view, 8);
  gtk_text_view_set_left_margin (self->text_view, 10);
  gtk_text_view_set_right_margin (self->text_view, 10);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Prompt"),
                                  -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->text_view), "prompt");

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (frame), GTK_WIDGET (self->text_view));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (frame), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (frame), TRUE);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (frame), 48);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (frame), 240);
  gtk_widget_add_css_class (frame, "card");
  gtk_widget_add_css_class (frame, "composer-entry");

  /* a text view has no placeholder of its own: a dim line over it, where
   * the text starts, while it is empty (clicks go through to the view) */
  self->placeholder = gtk_label_new (NULL);
  pal_composer_set_placeholder (self, NULL);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_widget_set_halign (self->placeholder, GTK_ALIGN_START);
  gtk_widget_set_valign (self->placeholder, GTK_ALIGN_START);
  gtk_widget_set_margin_start (self->placeholder, 11);
  gtk_widget_set_margin_top (self->placeholder, 9);
  gtk_label_set_ellipsize (GTK_LABEL (self->placeholder), PANGO_ELLIPSIZE_END);
  gtk_widget_set_can_target (self->placeholder, FALSE);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), frame);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->placeholder);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->text_view), keys);

  buffer = gtk_text_view_get_buffer (self->text_view);
  g_signal_connect (buffer, "changed", G_CALLBACK (buffer_changed_cb), self);
  g_signal_connect (self->text_view, "paste-clipboard", G_CALLBACK (paste_clipboard_cb), self);

  /* files dropped anywhere on the composer, the text included (the text
   * view would take them as text): seen first, in the capture phase */
  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drop), GTK_PHASE_CAPTURE);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  self->attach_button = GTK_BUTTON (gtk_button_new_from_icon_name ("mail-attachment-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->attach_button), _("Attach Files"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->attach_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Attach Files"), -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->attach_button), "flat");
  gtk_widget_add_css_class (GTK_WIDGET (self->attach_button), "circular");
  gtk_widget_set_valign (GTK_WIDGET (self->attach_button), GTK_ALIGN_END);
  g_signal_connect_swapped (self->attach_button, "clicked", G_CALLBACK (attach_clicked_cb), self);

  self->mentions = pal_mention_finder_new (self->text_view);

  self->options_bar = PAL_OPTIONS_BAR (pal_options_bar_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->options_bar), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->options_bar), GTK_ALIGN_CENTER);

  self->send_button = GTK_BUTTON (gtk_button_new_from_icon_name ("go-up-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->send_button), _("Send (Enter)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->send_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Send"), -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->send_button), "suggested-action");
  gtk_widget_add_css_class (GTK_WIDGET (self->send_button), "circular");
  g_signal_connect_swapped (self->send_button, "clicked", G_CALLBACK (send_clicked_cb), self);

  self->stop_button = GTK_BUTTON (gtk_button_new_from_icon_name ("media-playback-stop-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button), _("Stop (Escape)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->stop_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Stop"), -1);
  gtk_widget_add_css_class (GTK_WIDGET (self->stop_button), "destructive-action");
  gtk_widget_add_css_class (GTK_WIDGET (self->stop_button), "circular");
  g_signal_connect_swapped (self->stop_button, "clicked", G_CALLBACK (stop_clicked_cb), self);

  /* round, whatever the height of the selectors beside them */
  gtk_widget_set_valign (GTK_WIDGET (self->send_button), GTK_ALIGN_END);
  gtk_widget_set_valign (GTK_WIDGET (self->stop_button), GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->attach_button));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->options_bar));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->send_button));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->stop_button));

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->attachment_bar));
  gtk_box_append (GTK_BOX (box), overlay);
  gtk_box_append (GTK_BOX (box), bar);
  adw_bin_set_child (ADW_BIN (self), box);

  self->completion_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->completion_list, GTK_SELECTION_BROWSE);
  g_signal_connect (self->completion_list, "row-activated", G_CALLBACK (completion_row_activated_cb), self);
  self->completion_popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->completion_popover, GTK_WIDGET (self->completion_list));
  gtk_popover_set_autohide (self->completion_popover, FALSE);
  gtk_popover_set_has_arrow (self->completion_popover, FALSE);
  gtk_popover_set_position (self->completion_popover, GTK_POS_TOP);
  gtk_widget_set_halign (GTK_WIDGET (self->completion_popover), GTK_ALIGN_START);
  gtk_widget_set_parent (GTK_WIDGET (self->completion_popover), frame);

  update_buttons (self);
}

GtkWidget *
pal_composer_new (void)
{
  return g_object_new (PAL_TYPE_COMPOSER, NULL);
}

/**
 * pal_composer_dup_text:
 * @self: a #PalComposer
 *
 * Returns: (transfer full): the text typed so far
 */
char *
pal_composer_dup_text (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  /* a mention's chip reads "@path" */
  return pal_mention_finder_dup_text (self->mentions);
}

void
pal_composer_set_text (PalComposer *self,
                       const char  *text)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;

  g_return_if_fail (PAL_IS_COMPOSER (self));

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_set_text (buffer, text != NULL ? text : "", -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
}

gboolean
pal_composer_get_busy (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  return self->busy;
}

/**
 * pal_composer_set_busy:
 * @self: a #PalComposer
 * @busy: whether a turn runs
 *
 * While busy, Stop replaces Send; Enter sends only while "can-send" too
 * (the prompt is queued).
 */
void
pal_composer_set_busy (PalComposer *self,
                       gboolean     busy)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  busy = !!busy;
  if (self->busy == busy)
    return;

  self->busy = busy;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

gboolean
pal_composer_get_can_send (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  return self->can_send;
}

/**
 * pal_composer_set_can_send:
 * @self: a #PalComposer
 * @can_send: whether the session can take a prompt now
 */
void
pal_composer_set_can_send (PalComposer *self,
                           gboolean     can_send)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  can_send = !!can_send;
  if (self->can_send == can_send)
    return;

  self->can_send = can_send;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_SEND]);
}

/**
 * pal_composer_set_placeholder:
 * @self: a #PalComposer
 * @text: (nullable): what the empty composer says; %NULL for the usual
 *
 * Says what writing does, when it does more than send a prompt.
 */
void
pal_composer_set_placeholder (PalComposer *self,
                              const char  *text)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  gtk_label_set_text (GTK_LABEL (self->placeholder),
                      text != NULL ? text : _("Ask the agent, or type / for its commands"));
}

const char *
pal_composer_get_placeholder (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->placeholder));
}

static void
commands_changed_cb (GListModel  *model,
                     guint        position,
                     guint        removed,
                     guint        added,
                     PalComposer *self)
{
  update_completion (self);
}

/**
 * pal_composer_get_commands:
 * @self: a #PalComposer
 *
 * Returns: (transfer none) (nullable): the #AcpCommand items "/" offers
 */
GListModel *
pal_composer_get_commands (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  return self->commands;
}

/**
 * pal_composer_set_commands:
 * @self: a #PalComposer
 * @commands: (nullable): #AcpCommand items for slash completion
 *
 * The completion follows the changes of @commands.
 */
void
pal_composer_set_commands (PalComposer *self,
                           GListModel  *commands)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));
  g_return_if_fail (commands == NULL || G_IS_LIST_MODEL (commands));

  if (self->commands == commands)
    return;

  if (self->commands != NULL)
    g_signal_handlers_disconnect_by_data (self->commands, self);
  g_set_object (&self->commands, commands);
  if (commands != NULL)
    g_signal_connect (commands, "items-changed", G_CALLBACK (commands_changed_cb), self);

  update_completion (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMMANDS]);
}

/**
 * pal_composer_get_options_bar:
 * @self: a #PalComposer
 *
 * Returns: (transfer none): the selectors of the session's modes and
 *   config options, beside the buttons
 */
PalOptionsBar *
pal_composer_get_options_bar (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  return self->options_bar;
}

/**
 * pal_composer_dup_prompt:
 * @self: a #PalComposer
 *
 * Returns: (transfer full) (nullable): what is written, as a prompt; %NULL
 *   when nothing is
 */
PalPrompt *
pal_composer_dup_prompt (PalComposer *self)
{
  g_autofree char *text = NULL;
  PalPrompt *prompt;
  guint n;

  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  text = pal_composer_dup_text (self);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));
  if ((text == NULL || *text == '\0') && n == 0)
    return NULL;

  prompt = pal_prompt_new (text != NULL ? text : "");
  /* the files and folders mentioned in the text, in its order, then the
   * chips above it */
  pal_mention_finder_add_attachments (self->mentions, prompt);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalAttachment) attachment = g_list_model_get_item (G_LIST_MODEL (self->attachments), i);

      pal_prompt_add_attachment (prompt, attachment);
    }

  return prompt;
}

/* The chips above the text: what @attachments has that the text does not
 * mention */
static void
set_attachments (PalComposer *self,
                 GListModel  *attachments)
{
  guint n = attachments != NULL ? g_list_model_get_n_items (attachments) : 0;
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);
  g_autoptr(PalPrompt) mentioned = pal_prompt_new ("");
  GListModel *in_text = pal_prompt_get_attachments (mentioned);

  pal_mention_finder_add_attachments (self->mentions, mentioned);
  for (guint i = 0; i < n; i++)
    {
      PalAttachment *attachment = g_list_model_get_item (attachments, i);

      if (g_list_store_find (G_LIST_STORE (in_text), attachment, NULL))
        g_object_unref (attachment);
      else
        g_ptr_array_add (items, attachment);
    }
  g_list_store_splice (self->attachments, 0, g_list_model_get_n_items (G_LIST_MODEL (self->attachments)),
                       items->pdata, items->len);
}

/**
 * pal_composer_set_prompt:
 * @self: a #PalComposer
 * @prompt: (nullable): what to show as written, or %NULL to empty it
 *
 * Puts @prompt back in the composer: a draft, or one that did not go out.
 */
void
pal_composer_set_prompt (PalComposer *self,
                         PalPrompt   *prompt)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));
  g_return_if_fail (prompt == NULL || PAL_IS_PROMPT (prompt));

  /* the files and folders it mentions become chips in the text again,
   * the rest chips above it */
  pal_mention_finder_set_text (self->mentions,
                               prompt != NULL ? pal_prompt_get_text (prompt) : NULL,
                               prompt != NULL ? pal_prompt_get_attachments (prompt) : NULL);
  set_attachments (self, prompt != NULL ? pal_prompt_get_attachments (prompt) : NULL);
}

/**
 * pal_composer_submit:
 * @self: a #PalComposer
 *
 * Sends what was typed, as Enter does.
 *
 * Returns: whether a prompt was sent
 */
gboolean
pal_composer_submit (PalComposer *self)
{
  g_autoptr(PalPrompt) prompt = NULL;
  g_autofree char *stripped = NULL;

  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  if (!self->can_send)
    return FALSE;

  prompt = pal_composer_dup_prompt (self);
  if (prompt == NULL)
    return FALSE;
  stripped = g_strstrip (g_strdup (pal_prompt_get_text (prompt)));
  if (*stripped == '\0' &&
      g_list_model_get_n_items (pal_prompt_get_attachments (prompt)) == 0)
    return FALSE;

  hide_completion (self);
  pal_mention_finder_hide (self->mentions);
  pal_composer_set_prompt (self, NULL);
  g_signal_emit (self, signals[SUBMIT], 0, prompt);

  return TRUE;
}

void
pal_composer_grab_focus (PalComposer *self)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->text_view));
}

/**
 * pal_composer_get_n_completions:
 * @self: a #PalComposer
 *
 * Returns: how many commands the completion popover offers now (0 when closed)
 */
guint
pal_composer_get_n_completions (PalComposer *self)
{
  guint n = 0;

  g_return_val_if_fail (PAL_IS_COMPOSER (self), 0);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->completion_popover)))
    return 0;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->completion_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;

  return n;
}

/**
 * pal_composer_get_attachments:
 * @self: a #PalComposer
 *
 * Returns: (transfer none): the #PalAttachment items attached to what is
 *   written
 */
GListModel *
pal_composer_get_attachments (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  return G_LIST_MODEL (self->attachments);
}

/**
 * pal_composer_add_files:
 * @self: a #PalComposer
 * @files: (element-type GFile): files and folders
 *
 * Attaches @files, as a drop on the composer does: those outside the
 * session's folders once the person agreed, images scaled down. They show
 * up in pal_composer_get_attachments() when ready.
 */
void
pal_composer_add_files (PalComposer *self,
                        GSList      *files)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  pal_attacher_add_files (self->attacher, files);
}

/**
 * pal_composer_get_attacher:
 * @self: a #PalComposer
 *
 * Returns: (transfer none): what brings attachments in (its "pending"
 *   property tells how many are on their way)
 */
PalAttacher *
pal_composer_get_attacher (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), NULL);

  return self->attacher;
}

/**
 * pal_composer_set_folders:
 * @self: a #PalComposer
 * @folders: (nullable) (array zero-terminated=1): the session's folders
 *   (its cwd and additional directories); %NULL when not known
 *
 * A file attached from outside @folders asks first; "@" finds the files
 * in them.
 */
void
pal_composer_set_folders (PalComposer        *self,
                          const char * const *folders)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  if (folders != NULL && self->folders != NULL && g_strv_equal ((const char * const *) self->folders, folders))
    return;
  if (folders == NULL && self->folders == NULL)
    return;

  g_strfreev (self->folders);
  self->folders = g_strdupv ((char **) folders);
  pal_attacher_set_folders (self->attacher, folders);

  {
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; folders != NULL && folders[i] != NULL; i++)
      g_ptr_array_add (files, g_file_new_for_path (folders[i]));
    pal_mention_finder_set_folders (self->mentions, (GFile **) files->pdata, files->len);
  }
}

/**
 * pal_composer_set_agent_capabilities:
 * @self: a #PalComposer
 * @caps: (nullable): the capabilities of the agent the prompt goes to;
 *   %NULL while they are not known
 *
 * Without %ACP_AGENT_CAP_PROMPT_IMAGE, image chips are marked and the
 * composer says that they will not be sent.
 */
void
pal_composer_set_agent_capabilities (PalComposer                *self,
                                     const AcpAgentCapabilities *caps)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));

  pal_attachment_bar_set_accepts_images (self->attachment_bar,
                                         caps == NULL || (*caps & ACP_AGENT_CAP_PROMPT_IMAGE) != 0);
}

/**
 * pal_composer_get_refusing_images:
 * @self: a #PalComposer
 *
 * Returns: whether the composer says that the images attached will not be
 *   sent
 */
gboolean
pal_composer_get_refusing_images (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), FALSE);

  return pal_attachment_bar_get_refusing (self->attachment_bar);
}

/**
 * pal_composer_get_n_file_hits:
 * @self: a #PalComposer
 *
 * Returns: how many files the "@" finder shows now (0 when closed)
 */
guint
pal_composer_get_n_file_hits (PalComposer *self)
{
  g_return_val_if_fail (PAL_IS_COMPOSER (self), 0);

  return pal_mention_finder_get_n_hits (self->mentions);
}

/**
 * pal_composer_set_recall_model:
 * @self: a #PalComposer
 * @items: (nullable): the items of the transcript shown: Up and Down
 *   recall the text of its user messages
 */
void
pal_composer_set_recall_model (PalComposer *self,
                               GListModel  *items)
{
  g_return_if_fail (PAL_IS_COMPOSER (self));
  g_return_if_fail (items == NULL || G_IS_LIST_MODEL (items));

  forget_recall (self);
  g_set_object (&self->recall_model, items);
}
