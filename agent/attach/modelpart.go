package attach

import (
	"context"
	"encoding/base64"
	"log/slog"
	"sync"

	"github.com/juncture-app/juncture/agent/history"
)

// ReadFunc reads a stored attachment by its hash (the runtime's attachment
// store).
type ReadFunc func(ctx context.Context, hash string) (history.Attachment, error)

// ModelPart turns one attached file into the request-only content part the
// model reads: an image as an image part (downscaled; cached in cache) when
// the model takes images, a text file or PDF as a text part with its name,
// and a file that cannot be sent as a text part that says why.
func ModelPart(ctx context.Context, read ReadFunc, ref history.AttachmentRef, images bool, cache *ImageCache, log *slog.Logger) history.Part {
	isImage := IsImage(ref.MimeType)
	if isImage && !images {
		return history.Part{Kind: history.PartText, Data: "[Image " + QuoteName(ref.Name) + " was attached; this model does not accept images.]"}
	}
	if isImage {
		if img, ok := cache.get(ref.ID); ok {
			return history.Part{Kind: history.PartImage, Name: ref.Name, MimeType: img.mime, Data: img.data}
		}
	}
	blob, err := read(ctx, ref.ID)
	if err != nil {
		log.Warn("an attached file could not be read", "name", ref.Name, "id", ref.ID, "err", err)
		return history.Part{Kind: history.PartText, Data: "[File " + QuoteName(ref.Name) + " is no longer available.]"}
	}
	if isImage {
		// A file stored by an older version, or imported, may claim any
		// size: it is checked against the decode budget before any decode.
		mime, data, ok, why := ModelImage(ctx, ref.MimeType, blob.Data)
		if !ok {
			log.Warn("an attached image was not sent", "name", ref.Name, "id", ref.ID, "why", why)
			return history.Part{Kind: history.PartText, Data: "[Image " + QuoteName(ref.Name) + " was attached but cannot be shown to the model: " + why + "]"}
		}
		img := cachedImage{mime: mime, data: base64.StdEncoding.EncodeToString(data)}
		cache.put(ref.ID, img)
		return history.Part{Kind: history.PartImage, Name: ref.Name, MimeType: img.mime, Data: img.data}
	}
	return history.Part{Kind: history.PartText, Name: ref.Name, Data: FileText(ref, blob.Text)}
}

// ImageCache keeps recently sent images as the model receives them
// (base64): every model call of a thread sends its images again, and
// downscaling is not free. It is emptied when it would pass
// imageCacheBytes. The zero value is ready to use.
type ImageCache struct {
	mu   sync.Mutex
	imgs map[string]cachedImage
	size int
}

type cachedImage struct{ mime, data string }

const imageCacheBytes = 64 << 20

func (c *ImageCache) get(hash string) (cachedImage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	img, ok := c.imgs[hash]
	return img, ok
}

func (c *ImageCache) put(hash string, img cachedImage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.imgs == nil || c.size+len(img.data) > imageCacheBytes {
		c.imgs, c.size = map[string]cachedImage{}, 0
	}
	if _, ok := c.imgs[hash]; !ok {
		c.imgs[hash] = img
		c.size += len(img.data)
	}
}
