package runner

// readerGone reports whether the reading end of the pipe or socket fd
// writes to has been closed: poll reports POLLERR for a pipe without
// readers and POLLHUP for a socket whose peer is gone, whatever events are
// asked for, and polling without waiting makes it a check, not a wait.
func readerGone(fd int) bool {
	p := pollFd{fd: int32(fd)}
	return pollNow(&p) && p.revents&(pollErr|pollHup) != 0
}

// pollFd is struct pollfd.
type pollFd struct {
	fd              int32
	events, revents int16
}

const (
	pollErr = 0x8
	pollHup = 0x10
)
