/* pal-message-attachments.c: what was attached to a message: chips and thumbnails
 *
 * Under a message's text, what came with it besides text, in order: an
 * image as a thumbnail (at most THUMBNAIL_HEIGHT pixels tall; a click shows
 * it larger in a PalImageViewer), then a chip for each file, folder or
 * other resource (linked or embedded): an icon for its type, its name, its
 * size when known. A chip of a local file opens it with the desktop's
 * default application, as does one of a web address; another one only
 * shows what it is. Audio and blocks of unknown types get a chip that says
 * what they are.
 *
 * Images are decoded on a worker thread (pal_image_decode_async()), scaled
 * down to a thumbnail as they are; the thumbnail is kept with the block,
 * so that a row made again as the person scrolls shows it at once. Data
 * that is no image shows a "broken image" chip.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "pal-message-attachments.h"
#include "pal-image-decode.h"
#include "pal-image-viewer.h"
#include "pal-window.h"

/* Pixels: the tallest and widest a thumbnail is (it is decoded at that
 * size, which is the size it is shown at) */
#define THUMBNAIL_HEIGHT 160
#define THUMBNAIL_WIDTH  320

/* On a block: its Thumbnail, once decoded */
#define THUMBNAIL_KEY "pal-attachment-thumbnail"
/* On a chip: its accessible name, and its block */
#define CHIP_NAME_KEY  "pal-attachment-chip-name"
#define CHIP_BLOCK_KEY "pal-attachment-chip-block"

typedef struct
{
  GdkTexture *texture;   /* (nullable): none when the data is no image */
  int         width;     /* of the image itself */
  int         height;
} Thumbnail;

struct _PalMessageAttachments
{
  GtkWidget     parent_instance;

  GListModel   *model;      /* (nullable) */
  GtkWidget    *images;     /* GtkFlowBox: thumbnails */
  GtkWidget    *chips;      /* GtkFlowBox: the other attachments */
  GPtrArray    *shown;      /* the chip of each attachment, in order (borrowed) */
  GHashTable   *decoding;   /* AcpContentBlock being decoded (a reference) */
  GCancellable *cancellable;
};

enum {
  OPEN_URI,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PalMessageAttachments, pal_message_attachments, GTK_TYPE_WIDGET)

static void rebuild (PalMessageAttachments *self);

static void
thumbnail_free (gpointer data)
{
  Thumbnail *thumbnail = data;

  g_clear_object (&thumbnail->texture);
  g_free (thumbnail);
}

/* --- what a block is --- */

/* The last part of @uri's path, unescaped; NULL when it has none */
static char *
uri_basename (const char *uri)
{
  g_autoptr(GUri) parsed = NULL;
  const char *path, *slash;
  g_autofree char *last = NULL;

  if (uri == NULL)
    return NULL;

  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED_PATH, NULL);
  path = parsed != NULL ? g_uri_get_path (parsed) : NULL;
  if (path == NULL)
    return NULL;

  /* a folder's uri may end in a slash */
  last = g_strdup (path);
  while (g_str_has_suffix (last, "/") && last[1] != '\0')
    last[strlen (last) - 1] = '\0';
  slash = strrchr (last, '/');
  if (slash != NULL)
    slash++;
  else
    slash = last;
  if (*slash == '\0')
    return NULL;

  return g_uri_unescape_string (slash, NULL);
}

/**
 * pal_attachment_dup_display_name:
 * @block: a resource, resource link or other attached block
 *
 * Returns: (transfer full): the name a chip shows: a link's name, else the
 *   last part of its uri, else the uri whole
 */
char *
pal_attachment_dup_display_name (AcpContentBlock *block)
{
  const char *name = acp_content_block_get_name (block);
  const char *uri = acp_content_block_get_uri (block);
  char *base;

  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (block), NULL);

  if (name != NULL && *name != '\0' && g_utf8_validate (name, -1, NULL))
    return g_strdup (name);

  base = uri_basename (uri);
  if (base != NULL && g_utf8_validate (base, -1, NULL))
    return base;
  g_free (base);

  if (uri != NULL && g_utf8_validate (uri, -1, NULL))
    return g_strdup (uri);

  return g_strdup (acp_content_block_get_type_name (block));
}

/**
 * pal_attachment_can_open:
 * @block: an attached block
 *
 * Returns: whether @block is a resource or a link to one that the desktop
 *   can open: a local file, or a web address
 */
gboolean
pal_attachment_can_open (AcpContentBlock *block)
{
  const char *uri;
  const char *scheme;

  g_return_val_if_fail (ACP_IS_CONTENT_BLOCK (block), FALSE);

  switch (acp_content_block_get_block_type (block))
    {
    case ACP_CONTENT_BLOCK_TYPE_RESOURCE:
    case ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK:
      break;

    case ACP_CONTENT_BLOCK_TYPE_TEXT:
    case ACP_CONTENT_BLOCK_TYPE_IMAGE:
    case ACP_CONTENT_BLOCK_TYPE_AUDIO:
    case ACP_CONTENT_BLOCK_TYPE_UNKNOWN:
    default:
      return FALSE;
    }

  uri = acp_content_block_get_uri (block);
  scheme = uri != NULL ? g_uri_peek_scheme (uri) : NULL;

  return scheme != NULL &&
         (g_str_equal (scheme, "file") || g_str_equal (scheme, "http") ||
          g_str_equal (scheme, "https"));
}

/* A resource's size in bytes when known, else -1 */
static gint64
block_size (AcpContentBlock *block)
{
  const char *text = acp_content_block_get_text (block);
  const char *blob = acp_content_block_get_blob (block);

  if (acp_content_block_get_block_type (block) == ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK)
    return acp_content_block_get_size (block);
  if (text != NULL)
    return (gint64) strlen (text);
  if (blob != NULL)
    {
      gsize length = strlen (blob);
      gsize padding = 0;

      while (padding < 2 && padding < length && blob[length - 1 - padding] == '=')
        padding++;
      return (gint64) (length / 4 * 3 - MIN (length / 4 * 3, padding));
    }

  return -1;
}

/* The content type of a resource: from its MIME type, else from its name */
static char *
block_content_type (AcpContentBlock *block,
                    const char      *name)
{
  const char *mime_type = acp_content_block_get_mime_type (block);
  char *content_type = NULL;

  if (mime_type != NULL)
    content_type = g_content_type_from_mime_type (mime_type);
  if (content_type == NULL)
    content_type = g_content_type_guess (name, NULL, 0, NULL);

  return content_type;
}

/* --- chips --- */

static void
set_chip_name (GtkWidget  *chip,
               const char *name)
{
  g_object_set_data_full (G_OBJECT (chip), CHIP_NAME_KEY, g_strdup (name), g_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

/* The inside of a chip: an icon, a name, a size */
static GtkWidget *
chip_content (GIcon      *icon,
              const char *name,
              gint64      size)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (name);

  gtk_box_append (GTK_BOX (box), gtk_image_new_from_gicon (icon));
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 32);
  gtk_box_append (GTK_BOX (box), label);
  if (size >= 0)
    {
      g_autofree char *text = g_format_size ((guint64) size);
      GtkWidget *size_label = gtk_label_new (text);

      gtk_widget_add_css_class (size_label, "dim-label");
      gtk_box_append (GTK_BOX (box), size_label);
    }

  return box;
}

/* A chip that only shows what it is */
static GtkWidget *
still_chip (GIcon      *icon,
            const char *name,
            gint64      size)
{
  GtkWidget *chip = adw_bin_new ();

  adw_bin_set_child (ADW_BIN (chip), chip_content (icon, name, size));
  gtk_widget_add_css_class (chip, "attachment-chip");

  return chip;
}

static void
launch_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  PalMessageAttachments *self = user_data;
  g_autoptr(GError) error = NULL;
  GtkWidget *window;

  if (g_app_info_launch_default_for_uri_finish (result, &error))
    return;
  /* the chips went: nobody to tell */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  window = gtk_widget_get_ancestor (GTK_WIDGET (self), PAL_TYPE_WINDOW);
  if (window != NULL)
    {
      /* Translators: %s says why */
      g_autofree char *text = g_strdup_printf (_("The attachment could not be opened: %s"),
                                               error->message);

      pal_window_add_toast (PAL_WINDOW (window), text);
    }
  else
    {
      g_debug ("An attachment could not be opened: %s", error->message);
    }
}

/* The default handler of ::open-uri */
static void
pal_message_attachments_real_open_uri (PalMessageAttachments *self,
                                    const char         *uri)
{
  g_autoptr(GdkAppLaunchContext) context =
    gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (self)));

  g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (context), self->cancellable,
                                           launch_cb, self);
}

static void
chip_clicked_cb (GtkButton          *button,
                 PalMessageAttachments *self)
{
  AcpContentBlock *block = g_object_get_data (G_OBJECT (button), CHIP_BLOCK_KEY);

  g_signal_emit (self, signals[OPEN_URI], 0, acp_content_block_get_uri (block));
}

static GtkWidget *
resource_chip (PalMessageAttachments *self,
               AcpContentBlock    *block)
{
  g_autofree char *name = pal_attachment_dup_display_name (block);
  g_autofree char *content_type = block_content_type (block, name);
  g_autoptr(GIcon) icon = g_content_type_get_symbolic_icon (content_type);
  const char *uri = acp_content_block_get_uri (block);
  const char *scheme = uri != NULL ? g_uri_peek_scheme (uri) : NULL;
  g_autofree char *accessible = NULL;
  g_autofree char *tooltip = NULL;
  GtkWidget *chip;

  if (g_content_type_equals (content_type, "inode/directory"))
    /* Translators: %s is a folder's name */
    accessible = g_strdup_printf (_("Attached folder %s"), name);
  else if (g_strcmp0 (scheme, "file") == 0)
    /* Translators: %s is a file's name */
    accessible = g_strdup_printf (_("Attached file %s"), name);
  else
    /* Translators: %s is the name of what a link points at */
    accessible = g_strdup_printf (_("Attached link %s"), name);

  if (pal_attachment_can_open (block))
    {
      chip = gtk_button_new ();
      gtk_button_set_child (GTK_BUTTON (chip), chip_content (icon, name, block_size (block)));
      gtk_widget_add_css_class (chip, "attachment-chip");
      g_object_set_data_full (G_OBJECT (chip), CHIP_BLOCK_KEY, g_object_ref (block), g_object_unref);
      g_signal_connect (chip, "clicked", G_CALLBACK (chip_clicked_cb), self);
    }
  else
    {
      chip = still_chip (icon, name, block_size (block));
    }

  /* where it is, for a file; what it is, for the rest */
  if (g_strcmp0 (scheme, "file") == 0)
    tooltip = g_filename_from_uri (uri, NULL, NULL);
  if (tooltip == NULL && uri != NULL && g_utf8_validate (uri, -1, NULL))
    tooltip = g_strdup (uri);
  if (tooltip != NULL && g_utf8_validate (tooltip, -1, NULL))
    gtk_widget_set_tooltip_text (chip, tooltip);
  set_chip_name (chip, accessible);

  return chip;
}

static GtkWidget *
other_chip (AcpContentBlock *block)
{
  g_autoptr(GIcon) icon = NULL;
  g_autofree char *name = NULL;
  GtkWidget *chip;

  if (acp_content_block_get_block_type (block) == ACP_CONTENT_BLOCK_TYPE_AUDIO)
    {
      icon = g_themed_icon_new ("audio-x-generic-symbolic");
      name = g_strdup (_("Audio"));
      chip = still_chip (icon, name, -1);
      set_chip_name (chip, _("Attached audio"));
      return chip;
    }

  icon = g_themed_icon_new ("mail-attachment-symbolic");
  name = g_strdup (acp_content_block_get_type_name (block));
  if (name == NULL || !g_utf8_validate (name, -1, NULL))
    {
      g_free (name);
      name = g_strdup ("?");
    }
  chip = still_chip (icon, name, -1);
  {
    /* Translators: %s is the name of a kind of content, as the agent gave it */
    g_autofree char *accessible = g_strdup_printf (_("Attachment of type %s"), name);

    set_chip_name (chip, accessible);
  }

  return chip;
}

/* --- images --- */

static GtkWidget *
broken_chip (void)
{
  g_autoptr(GIcon) icon = g_themed_icon_new ("image-missing-symbolic");
  GtkWidget *chip = still_chip (icon, _("Broken image"), -1);

  set_chip_name (chip, _("Broken image"));

  return chip;
}

static void
thumbnail_clicked_cb (GtkButton          *button,
                      PalMessageAttachments *self)
{
  AcpContentBlock *block = g_object_get_data (G_OBJECT (button), CHIP_BLOCK_KEY);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *viewer = pal_image_viewer_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, block);

  gtk_window_present (GTK_WINDOW (viewer));
}

static GtkWidget *
thumbnail_chip (PalMessageAttachments *self,
                AcpContentBlock    *block,
                const Thumbnail    *thumbnail)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (thumbnail->texture));
  double scale = MIN (1.0, MIN ((double) THUMBNAIL_HEIGHT / thumbnail->height,
                                (double) THUMBNAIL_WIDTH / thumbnail->width));
  /* Translators: an image's width and height in pixels */
  g_autofree char *name = g_strdup_printf (_("Image, %d × %d"), thumbnail->width, thumbnail->height);

  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_size_request (picture,
                               MAX (1, (int) (thumbnail->width * scale)),
                               MAX (1, (int) (thumbnail->height * scale)));
  gtk_button_set_child (GTK_BUTTON (button), picture);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "attachment-thumbnail");
  gtk_widget_set_tooltip_text (button, _("Show Larger"));
  g_object_set_data_full (G_OBJECT (button), CHIP_BLOCK_KEY, g_object_ref (block), g_object_unref);
  g_signal_connect (button, "clicked", G_CALLBACK (thumbnail_clicked_cb), self);
  set_chip_name (button, name);

  return button;
}

typedef struct
{
  PalMessageAttachments *self;   /* not a reference: the decode is cancelled when it goes */
  AcpContentBlock    *block;
} Decoding;

static void
decode_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Decoding *decoding = user_data;
  g_autoptr(AcpContentBlock) block = decoding->block;
  g_autoptr(GError) error = NULL;
  PalMessageAttachments *self = decoding->self;
  Thumbnail *thumbnail = g_new0 (Thumbnail, 1);

  g_free (decoding);
  thumbnail->texture = pal_image_decode_finish (result, &thumbnail->width, &thumbnail->height, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      thumbnail_free (thumbnail);
      return;
    }
  if (error != NULL)
    g_debug ("An attached image is not shown: %s", error->message);

  g_object_set_data_full (G_OBJECT (block), THUMBNAIL_KEY, thumbnail, thumbnail_free);
  g_hash_table_remove (self->decoding, block);
  rebuild (self);
}

/* The image's thumbnail, or a place for it while it is decoded */
static GtkWidget *
image_chip (PalMessageAttachments *self,
            AcpContentBlock    *block)
{
  const Thumbnail *thumbnail = g_object_get_data (G_OBJECT (block), THUMBNAIL_KEY);
  GtkWidget *waiting;

  if (thumbnail != NULL)
    return thumbnail->texture != NULL ? thumbnail_chip (self, block, thumbnail) : broken_chip ();

  if (!g_hash_table_contains (self->decoding, block))
    {
      Decoding *decoding = g_new0 (Decoding, 1);

      decoding->self = self;
      decoding->block = g_object_ref (block);
      g_hash_table_add (self->decoding, g_object_ref (block));
      pal_image_decode_async (block, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT, self->cancellable, decode_cb, decoding);
    }

  waiting = gtk_spinner_new ();
  gtk_spinner_start (GTK_SPINNER (waiting));
  gtk_widget_set_size_request (waiting, THUMBNAIL_HEIGHT / 2, THUMBNAIL_HEIGHT / 2);
  set_chip_name (waiting, _("Image, loading"));

  return waiting;
}

/* --- the whole --- */

static void
append_to (GtkWidget *flow_box,
           GtkWidget *chip)
{
  GtkWidget *child;

  /* as wide as it needs, not as the line */
  gtk_widget_set_halign (chip, GTK_ALIGN_START);
  gtk_widget_set_valign (chip, GTK_ALIGN_START);
  gtk_flow_box_append (GTK_FLOW_BOX (flow_box), chip);
  /* the chip takes the focus, not the place it is in */
  child = gtk_widget_get_parent (chip);
  gtk_widget_set_focusable (child, FALSE);
}

static void
clear_flow_box (GtkWidget *flow_box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (flow_box)) != NULL)
    gtk_flow_box_remove (GTK_FLOW_BOX (flow_box), child);
}

static void
rebuild (PalMessageAttachments *self)
{
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
  gboolean any_image = FALSE, any_chip = FALSE;

  clear_flow_box (self->images);
  clear_flow_box (self->chips);
  g_ptr_array_set_size (self->shown, 0);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AcpContentBlock) block = g_list_model_get_item (self->model, i);
      GtkWidget *chip;

      switch (acp_content_block_get_block_type (block))
        {
        case ACP_CONTENT_BLOCK_TYPE_IMAGE:
          chip = image_chip (self, block);
          append_to (self->images, chip);
          any_image = TRUE;
          break;

        case ACP_CONTENT_BLOCK_TYPE_RESOURCE:
        case ACP_CONTENT_BLOCK_TYPE_RESOURCE_LINK:
          chip = resource_chip (self, block);
          append_to (self->chips, chip);
          any_chip = TRUE;
          break;

        case ACP_CONTENT_BLOCK_TYPE_TEXT:
        case ACP_CONTENT_BLOCK_TYPE_AUDIO:
        case ACP_CONTENT_BLOCK_TYPE_UNKNOWN:
        default:
          chip = other_chip (block);
          append_to (self->chips, chip);
          any_chip = TRUE;
          break;
        }
      g_ptr_array_add (self->shown, chip);
    }

  gtk_widget_set_visible (self->images, any_image);
  gtk_widget_set_visible (self->chips, any_chip);
  gtk_widget_set_visible (GTK_WIDGET (self), any_image || any_chip);
}

static void
model_items_changed_cb (GListModel         *model,
                        guint               position,
                        guint               removed,
                        guint               added,
                        PalMessageAttachments *self)
{
  rebuild (self);
}

static void
pal_message_attachments_dispose (GObject *object)
{
  PalMessageAttachments *self = PAL_MESSAGE_ATTACHMENTS (object);

  g_cancellable_cancel (self->cancellable);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  g_clear_pointer (&self->images, gtk_widget_unparent);
  g_clear_pointer (&self->chips, gtk_widget_unparent);
  g_clear_pointer (&self->decoding, g_hash_table_unref);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (pal_message_attachments_parent_class)->dispose (object);
}

static void
pal_message_attachments_class_init (PalMessageAttachmentsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = pal_message_attachments_dispose;

  /**
   * PalMessageAttachments::open-uri:
   * @self: the chips
   * @uri: what the activated chip points at
   *
   * A chip that can be opened was activated; the default handler opens
   * @uri with the desktop's default application for it.
   */
  signals[OPEN_URI] =
    g_signal_new_class_handler ("open-uri",
                                G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST,
                                G_CALLBACK (pal_message_attachments_real_open_uri),
                                NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "attachments");
}

static GtkWidget *
new_flow_box (void)
{
  GtkWidget *flow_box = gtk_flow_box_new ();

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow_box), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow_box), 32);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow_box), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (flow_box), 6);
  gtk_widget_set_visible (flow_box, FALSE);

  return flow_box;
}

static void
pal_message_attachments_init (PalMessageAttachments *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);

  self->cancellable = g_cancellable_new ();
  self->shown = g_ptr_array_new ();
  self->decoding = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref, NULL);
  self->images = new_flow_box ();
  gtk_widget_set_parent (self->images, GTK_WIDGET (self));
  self->chips = new_flow_box ();
  gtk_widget_set_parent (self->chips, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
pal_message_attachments_new (void)
{
  return g_object_new (PAL_TYPE_MESSAGE_ATTACHMENTS, NULL);
}

/**
 * pal_message_attachments_set_model:
 * @self: a #PalMessageAttachments
 * @attachments: (nullable): a list model of #AcpContentBlock, followed as
 *   it changes
 */
void
pal_message_attachments_set_model (PalMessageAttachments *self,
                                GListModel         *attachments)
{
  g_return_if_fail (PAL_IS_MESSAGE_ATTACHMENTS (self));
  g_return_if_fail (attachments == NULL || G_IS_LIST_MODEL (attachments));

  if (self->model == attachments)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_set_object (&self->model, attachments);
  if (self->model != NULL)
    g_signal_connect (self->model, "items-changed", G_CALLBACK (model_items_changed_cb), self);
  rebuild (self);
}

GListModel *
pal_message_attachments_get_model (PalMessageAttachments *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ATTACHMENTS (self), NULL);

  return self->model;
}

/**
 * pal_message_attachments_get_n_decoding:
 * @self: a #PalMessageAttachments
 *
 * Returns: how many images are being decoded, their thumbnails still to
 *   come
 */
guint
pal_message_attachments_get_n_decoding (PalMessageAttachments *self)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ATTACHMENTS (self), 0);

  return g_hash_table_size (self->decoding);
}

/**
 * pal_message_attachments_get_chip:
 * @self: a #PalMessageAttachments
 * @position: the position of an attachment in the model
 *
 * Returns: (transfer none) (nullable): what shows it: a button for a
 *   thumbnail or a chip that opens, another widget for the rest
 */
GtkWidget *
pal_message_attachments_get_chip (PalMessageAttachments *self,
                               guint               position)
{
  g_return_val_if_fail (PAL_IS_MESSAGE_ATTACHMENTS (self), NULL);

  return position < self->shown->len ? g_ptr_array_index (self->shown, position) : NULL;
}

/**
 * pal_message_attachments_get_chip_name:
 * @chip: a chip of a #PalMessageAttachments
 *
 * Returns: (nullable): its accessible name ("Attached file hello.c")
 */
const char *
pal_message_attachments_get_chip_name (GtkWidget *chip)
{
  g_return_val_if_fail (GTK_IS_WIDGET (chip), NULL);

  return g_object_get_data (G_OBJECT (chip), CHIP_NAME_KEY);
}
