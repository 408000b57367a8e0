package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"
)

type readArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func readFileTool(w Workspace) Tool {
	return Tool{
		Name: ToolReadFile,
		Description: "Read a text file in the workspace. Returns at most 256 KiB; use offset and limit " +
			"(in lines) to read a long file in parts. Binary files are refused.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "File to read, relative to the workspace root."},
    "offset": {"type": "integer", "minimum": 0, "description": "First line to return, counting from 1. Default: 1."},
    "limit": {"type": "integer", "minimum": 1, "description": "Most lines to return. Default: as many as fit in 256 KiB."}
  },
  "required": ["path"],
  "additionalProperties": false
}`),
		OnStop: MustComplete,
		Run:    withArgs(func(_ context.Context, a readArgs) (Result, error) { return readFile(w, a) }),
	}
}

// sniffBytes is how much of a file decides whether it is text.
const sniffBytes = 8 << 10

func readFile(w Workspace, a readArgs) (Result, error) {
	r, err := w.open()
	if err != nil {
		return Result{}, err
	}
	defer r.Close()
	rel, _, err := r.locate(w, a.Path)
	if err != nil {
		return Result{}, err
	}
	// Opened without blocking and judged by the open file: opening a FIFO
	// would block, and read_file runs to completion whatever Stop says.
	f, info, err := openNoBlock(r.Root, rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Result{}, fmt.Errorf("file %q does not exist", a.Path)
		}
		return Result{}, fmt.Errorf("cannot read %q: %w", a.Path, err)
	}
	defer f.Close()
	if info.IsDir() {
		return Result{}, fmt.Errorf("%q is a folder; use list_files to see what is in it", a.Path)
	}
	if !info.Mode().IsRegular() {
		return Result{}, fmt.Errorf("%q is not a regular file", a.Path)
	}
	if info.Size() == 0 {
		return Result{Content: "(empty file)"}, nil
	}
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Result{}, fmt.Errorf("cannot read %q: %w", a.Path, err)
	}
	if looksBinary(head[:n]) {
		return Result{}, fmt.Errorf("%q looks like a binary file (%s); read_file only reads text", a.Path, humanSize(info.Size()))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Result{}, fmt.Errorf("cannot read %q: %w", a.Path, err)
	}
	return readLines(bufio.NewReaderSize(f, 64<<10), a)
}

// readLines returns lines offset..offset+limit-1 (1-based), stopping at
// MaxReadBytes, with a note saying how to read on when it stops early.
func readLines(br *bufio.Reader, a readArgs) (Result, error) {
	start := max(a.Offset, 1)
	line := 1
	for line < start {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue // the same long line goes on
		case errors.Is(err, io.EOF):
			total := line - 1
			if len(chunk) > 0 {
				total = line // a last line without a newline
			}
			return Result{}, fmt.Errorf("offset %d is past the end of the file, which has %d lines", start, total)
		case err != nil:
			return Result{}, err
		}
		line++
	}
	var out bytes.Buffer
	lines, lineEnd := 0, 0
	cut, stopped, eof := false, false, false
	for a.Limit == 0 || lines < a.Limit {
		chunk, err := br.ReadSlice('\n')
		if room := MaxReadBytes - out.Len(); len(chunk) > room {
			if lines > 0 {
				// Stop at the last whole line; the next read starts here.
				out.Truncate(lineEnd)
				stopped = true
				break
			}
			// The first line alone is over the limit: show its start.
			out.Write(chunk[:runeStart(chunk, room)])
			cut = true
			break
		}
		out.Write(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			eof = true
			if len(chunk) > 0 {
				lines++
			}
			break
		}
		if err != nil {
			return Result{}, err
		}
		lines++
		lineEnd = out.Len()
	}
	if start > 1 && lines == 0 && eof && out.Len() == 0 {
		return Result{}, fmt.Errorf("offset %d is past the end of the file, which has %d lines", start, start-1)
	}
	more := stopped
	if !cut && !stopped && !eof {
		_, err := br.Peek(1)
		more = err == nil
	}
	text := strings.ToValidUTF8(out.String(), "\uFFFD")
	last := start + lines - 1
	switch {
	case cut:
		text += fmt.Sprintf("\n[Line %d is longer than 256 KiB and was cut. Continue with offset=%d.]", start, start+1)
	case more:
		text += fmt.Sprintf("\n[Showing lines %d-%d; the file goes on (at most 256 KiB per read). Continue with offset=%d.]", start, last, last+1)
	case start > 1:
		text += fmt.Sprintf("\n[Showing lines %d-%d, the end of the file.]", start, last)
	}
	return Result{Content: text}, nil
}

// runeStart returns the largest i <= n that does not split a UTF-8 rune.
func runeStart(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for i := n; i > 0 && n-i < utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return n
}

// looksBinary reports whether the first bytes of a file are not text: a NUL
// byte, or mostly invalid UTF-8 and control characters.
func looksBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	bad, total := 0, 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 && len(b) < utf8.UTFMax && !utf8.FullRune(b) {
			break // a rune cut by the sniff window
		}
		total++
		if r == utf8.RuneError && size == 1 || r < 0x20 && !strings.ContainsRune("\t\n\r\f\v\b\x1b", r) {
			bad++
		}
		b = b[size:]
	}
	return total > 0 && bad*10 > total
}
