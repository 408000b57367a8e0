//go:build desktop && linux && cgo

// Command xstop times Stop as the screen shows it (issue 26): it presses
// Esc in the X server (XTest) and waits for the pixels of one rectangle of
// a window, the composer's Stop button, to change, watching the window's
// damage (the X Damage extension) and reading the rectangle back after each
// damage that touches it. It prints the milliseconds from the key to the
// first change, or "none" when nothing changed in time.
//
// Why beside the page's own measure (lib/benchTitle.ts): in WebKitGTK a
// task posted from an animation frame's callback runs after the next
// frame far more often than not (27 of 34 trials, 2026-12-04), so the page
// learns that its frame was painted one frame late at best. The X server
// sees the pixels arrive.
//
//	xstop -window ID -rect X,Y,W,H [-timeout 2s]
//	xstop -window ID -area 5s   (the area the window redraws in 5 s)
//	-list with either: every damage rectangle on stderr (ms x y w h), from
//	the key (with -rect) or the start (with -area), to see what a frame redraws
//
// X,Y are relative to the window (CSS pixels at a device pixel ratio of 1,
// as under Xvfb).
package main

/*
#cgo LDFLAGS: -lX11 -lXdamage -lXtst
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/XTest.h>

static int damage_event_base(Display *d) {
	int ev, err;
	if (!XDamageQueryExtension(d, &ev, &err)) return -1;
	return ev;
}

// The rectangle's pixels as one buffer (32 bits a pixel), or NULL.
static char *grab(Display *d, Window w, int x, int y, int wd, int ht, int *len) {
	XImage *img = XGetImage(d, w, x, y, wd, ht, AllPlanes, ZPixmap);
	if (!img) return NULL;
	*len = img->bytes_per_line * img->height;
	char *out = malloc(*len);
	memcpy(out, img->data, *len);
	XDestroyImage(img);
	return out;
}

// Waits up to ms for an event; 1 when one is queued.
static int wait_event(Display *d, int ms) {
	if (XPending(d)) return 1;
	struct pollfd p = { ConnectionNumber(d), POLLIN, 0 };
	if (poll(&p, 1, ms) <= 0) return 0;
	return XPending(d) > 0;
}

// The damaged area of a DamageNotify event, or 0 for another event.
static int damage_area(Display *d, int base, XRectangle *r) {
	XEvent e;
	XNextEvent(d, &e);
	if (e.type != base + XDamageNotify) return 0;
	*r = ((XDamageNotifyEvent *)&e)->area;
	return 1;
}

static void press_escape(Display *d) {
	KeyCode k = XKeysymToKeycode(d, XK_Escape);
	XTestFakeKeyEvent(d, k, True, 0);
	XTestFakeKeyEvent(d, k, False, 0);
	XFlush(d);
}
*/
import "C"

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

func main() {
	winArg := flag.String("window", "", "the X window id (decimal or 0x…)")
	rectArg := flag.String("rect", "", "X,Y,W,H of the rectangle to watch, relative to the window")
	timeout := flag.Duration("timeout", 2*time.Second, "how long to wait for the change")
	list := flag.Bool("list", false, "every rectangle on stderr (ms x y w h), to see what a frame redraws (with -rect: from the key until the change)")
	area := flag.Duration("area", 0, "instead of Stop: for this long, sum the area the window redraws (what a streamed frame costs on the screen)")
	flag.Parse()
	win, err := strconv.ParseUint(*winArg, 0, 64)
	if err == nil && *area > 0 {
		if err := redrawn(C.Window(win), *area, *list); err != nil {
			fmt.Fprintln(os.Stderr, "xstop:", err)
			os.Exit(1)
		}
		return
	}
	r, rerr := parseRect(*rectArg)
	if err != nil || rerr != nil {
		fmt.Fprintln(os.Stderr, "usage: xstop -window ID -rect X,Y,W,H [-timeout 2s]")
		os.Exit(2)
	}
	if err := run(C.Window(win), r, *timeout, *list); err != nil {
		fmt.Fprintln(os.Stderr, "xstop:", err)
		os.Exit(1)
	}
}

type rect struct{ x, y, w, h int }

func parseRect(s string) (rect, error) {
	p := strings.Split(s, ",")
	if len(p) != 4 {
		return rect{}, fmt.Errorf("want X,Y,W,H, got %q", s)
	}
	var v [4]int
	for i, f := range p {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || (i >= 2 && n == 0) {
			return rect{}, fmt.Errorf("bad rectangle %q", s)
		}
		v[i] = n
	}
	return rect{v[0], v[1], v[2], v[3]}, nil
}

func (r rect) touches(a C.XRectangle) bool {
	ax, ay, aw, ah := int(a.x), int(a.y), int(a.width), int(a.height)
	return ax < r.x+r.w && r.x < ax+aw && ay < r.y+r.h && r.y < ay+ah
}

func grab(d *C.Display, w C.Window, r rect) ([]byte, error) {
	var n C.int
	p := C.grab(d, w, C.int(r.x), C.int(r.y), C.int(r.w), C.int(r.h), &n)
	if p == nil {
		return nil, fmt.Errorf("reading the rectangle %v of the window back failed", r)
	}
	defer C.free(unsafe.Pointer(p))
	return C.GoBytes(unsafe.Pointer(p), n), nil
}

// watchDamage opens the display and asks it for the window's damage, one
// event per rectangle drawn; done closes both.
func watchDamage(w C.Window) (dpy *C.Display, base C.int, done func(), err error) {
	dpy = C.XOpenDisplay(nil)
	if dpy == nil {
		return nil, 0, nil, fmt.Errorf("no X display (DISPLAY=%q)", os.Getenv("DISPLAY"))
	}
	base = C.damage_event_base(dpy)
	if base < 0 {
		C.XCloseDisplay(dpy)
		return nil, 0, nil, fmt.Errorf("the X server has no Damage extension")
	}
	dmg := C.XDamageCreate(dpy, C.Drawable(w), C.XDamageReportRawRectangles)
	C.XSync(dpy, C.False)
	return dpy, base, func() {
		C.XDamageDestroy(dpy, dmg)
		C.XCloseDisplay(dpy)
	}, nil
}

// redrawn prints what the window redrew in d: the damage rectangles, their
// summed area in pixels and the largest.
// With list (-list), every rectangle also goes to stderr as it comes.
func redrawn(w C.Window, d time.Duration, list bool) error {
	dpy, base, done, err := watchDamage(w)
	if err != nil {
		return err
	}
	defer done()
	var rects, px, largest int
	t0 := time.Now()
	for left := d; left > 0; left = d - time.Since(t0) {
		if C.wait_event(dpy, C.int(left.Milliseconds()+1)) == 0 {
			continue
		}
		var a C.XRectangle
		if C.damage_area(dpy, base, &a) == 0 {
			continue
		}
		n := int(a.width) * int(a.height)
		if list {
			fmt.Fprintf(os.Stderr, "%d %d %d %d %d\n", time.Since(t0).Milliseconds(), a.x, a.y, a.width, a.height)
		}
		rects++
		px += n
		largest = max(largest, n)
	}
	fmt.Printf("rects=%d px=%d largest=%d\n", rects, px, largest)
	return nil
}

func epochMs(t time.Time) float64 { return float64(t.UnixMicro()) / 1000 }

func run(w C.Window, r rect, timeout time.Duration, list bool) error {
	d, base, done, err := watchDamage(w)
	if err != nil {
		return err
	}
	defer done()
	before, err := grab(d, w, r)
	if err != nil {
		return err
	}
	// Damage from before the key (the stream's last frame) is not the answer.
	for C.XPending(d) > 0 {
		var a C.XRectangle
		C.damage_area(d, base, &a)
	}
	t0 := time.Now()
	C.press_escape(d)
	for {
		left := timeout - time.Since(t0)
		if left <= 0 {
			fmt.Printf("none %.3f\n", epochMs(t0))
			return nil
		}
		if C.wait_event(d, C.int(left.Milliseconds()+1)) == 0 {
			continue
		}
		var a C.XRectangle
		if C.damage_area(d, base, &a) == 0 {
			continue
		}
		if list {
			fmt.Fprintf(os.Stderr, "%.1f %d %d %d %d\n", float64(time.Since(t0).Microseconds())/1000, a.x, a.y, a.width, a.height)
		}
		if !r.touches(a) {
			continue
		}
		at := time.Since(t0)
		now, err := grab(d, w, r)
		if err != nil {
			return err
		}
		if !bytes.Equal(now, before) {
			fmt.Printf("%.2f %.3f\n", float64(at.Microseconds())/1000, epochMs(t0))
			return nil
		}
	}
}
