package attach

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// limitSelf puts the child in a Job Object of its own that bounds its
// committed memory (ChildMemory above what is committed at start is not
// measurable here, so the Go runtime's own share is added as a constant)
// and its CPU time. The job handle stays open for the child's life.
func limitSelf(cpu int) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY | windows.JOB_OBJECT_LIMIT_PROCESS_TIME |
		windows.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
	info.ProcessMemoryLimit = uintptr(ChildMemory + 128<<20)
	info.BasicLimitInformation.PerProcessUserTimeLimit = int64(cpu) * 10_000_000 // 100 ns units
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		return err
	}
	return windows.AssignProcessToJobObject(job, windows.CurrentProcess())
}

// maxRSS is not measured on Windows.
func maxRSS(*os.ProcessState) int64 { return 0 }

// killedByCPU: a job's CPU limit ends the process with an exit code, not
// a signal; the generic message covers it.
func killedByCPU(interface{ Sys() any }) bool { return false }
