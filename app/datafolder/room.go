package datafolder

import "github.com/juncture-app/juncture/agent/attach"

// Room a message needs before its run starts: its text and files about
// three times over (the row, the search index, the -wal copy before the
// checkpoint) plus headroom for the run's own records and the answer's
// first checkpoints.
const (
	sendRoomFactor = 3
	sendRoomMargin = 256 << 10
)

// RoomToSend is the free space, in bytes, a message (its text and files)
// needs on the data folder's disk before its run starts (store.DB.CheckRoom).
func RoomToSend(text string, files []attach.Input) int64 {
	n := int64(len(text))
	for _, f := range files {
		n += int64(len(f.Data))
	}
	return sendRoomFactor*n + sendRoomMargin
}
