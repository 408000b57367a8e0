package model

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
)

// sseReader reads "data:" frames of an SSE body.
type sseReader struct {
	body io.ReadCloser
	r    *bufio.Reader
	data []byte
}

func newSSEReader(resp *http.Response) *sseReader {
	return &sseReader{body: resp.Body, r: bufio.NewReaderSize(resp.Body, 64<<10)}
}

var errDone = errors.New("[DONE]")

// next returns the next frame's data; errDone at "[DONE]"; io.EOF (or a
// read error) when the body ends.
func (s *sseReader) next() ([]byte, error) {
	s.data = s.data[:0]
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A frame line longer than the buffer: collect it whole.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = s.r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && len(line) == 0 {
			if len(s.data) > 0 && err == io.EOF {
				return s.data, nil
			}
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if len(s.data) > 0 {
				return s.data, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[5:], []byte(" "))
			if bytes.Equal(v, []byte("[DONE]")) {
				return nil, errDone
			}
			if len(s.data) > 0 {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, v...)
		}
		// event:, id:, retry: and comments are ignored.
		if err != nil {
			if len(s.data) > 0 {
				return s.data, nil
			}
			return nil, err
		}
	}
}
