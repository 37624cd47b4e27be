/* pal-preferences-window-private.h: what the pages of the window share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "pal-preferences-window.h"

G_BEGIN_DECLS

struct _PalPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  AdwPreferencesPage *agents_page;
  AdwPreferencesPage *servers_page;
  AdwComboRow *default_agent_row;
  GtkListBox *agent_list;
  GtkListBox *server_list;
  GtkMenuButton *servers_menu_button;

  PalAgentStore *agent_store;
  PalMcpServerStore *mcp_server_store;
  SoupSession *session;

  GCancellable *cancellable;
  guint syncing_default;

  /* the MCP Servers page (pal-preferences-window-servers.c) */
  GtkFileChooserNative *export_chooser;
  /* id → removed server, while a toast offers to undo it */
  GHashTable *removals;
  guint last_removal_id;

  /* the History page (pal-preferences-window-history.c) */
  PalTranscriptStore *transcript_store;
  AdwPreferencesPage *history_page;
  AdwActionRow *history_size_row;
  GtkWidget *history_delete_button;
};

/* The key of a row's item (a profile or a server) in its object data. */
#define ROW_ITEM "pal-item"

void       _pal_preferences_window_add_toast        (PalPreferencesWindow *self,
                                                     const char           *title);
GtkWidget *_pal_preferences_window_add_suffix_button (AdwActionRow        *row,
                                                     const char           *icon_name,
                                                     const char           *tooltip);
char      *_pal_preferences_window_dup_command_line (const char           *command,
                                                     const char * const   *args);

void       _pal_preferences_window_servers_init     (PalPreferencesWindow *self);
void       _pal_preferences_window_servers_bind     (PalPreferencesWindow *self);
void       _pal_preferences_window_servers_dispose  (PalPreferencesWindow *self);
void       _pal_preferences_window_servers_class_init (GtkWidgetClass     *widget_class);

void       _pal_preferences_window_history_init     (PalPreferencesWindow *self);
void       _pal_preferences_window_history_dispose  (PalPreferencesWindow *self);

G_END_DECLS
