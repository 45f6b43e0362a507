// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/utfconv: every open file is a UTF-8 <-> UTF-16 conversion stream
 * (write input, read output, ioctls to configure, flush, reset, convert
 * one buffer). Mode 0666: no state is shared between files; memory is
 * charged to the opener's cgroup and bounded per user.
 *
 * Locking follows pipes: one mutex per file, taken interruptibly for
 * bounded work. A reader stalled in a page fault holds up other calls on
 * the same file, never poll(), RESET, a signal or another file.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>
#include <linux/utfconv.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <uapi/linux/utfconv.h>

/* Input bytes per step of write() and CONVERT; output: its worst case. */
#define UTFCONV_DEV_IN_BYTES		4096
#define UTFCONV_DEV_OUT_BYTES		(2 * UTFCONV_DEV_IN_BYTES)
/* Room for any one character; a BOM, a replacement and a character. */
#define UTFCONV_DEV_MIN_ROOM		4
#define UTFCONV_DEV_WRAP_BYTES		16

#define UTFCONV_DEV_BUFFER_MIN		4096U
#define UTFCONV_DEV_BUFFER_MAX		(16U << 20)
#define UTFCONV_DEV_BUFFER_DEFAULT	65536U

/**
 * DOC: buffer_bytes
 *
 * Module parameter ``buffer_bytes``: capacity in bytes of the output
 * buffer of each open file of /dev/utfconv (default 65536), a power of
 * two from 4096 to 16777216, else the load fails with -EINVAL. Fixed
 * while the module is loaded; %UTFCONV_IOC_GET_INFO reports it.
 */
static unsigned int utfconv_dev_buffer_bytes = UTFCONV_DEV_BUFFER_DEFAULT;

/* -EINVAL for anything else, kstrtouint()'s -ERANGE included. */
static int utfconv_dev_buffer_bytes_set(const char *val,
					const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < UTFCONV_DEV_BUFFER_MIN ||
	    v > UTFCONV_DEV_BUFFER_MAX || !is_power_of_2(v)) {
		pr_err("buffer_bytes=%s: must be a power of two from %u to %u\n",
		       val, UTFCONV_DEV_BUFFER_MIN, UTFCONV_DEV_BUFFER_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops utfconv_dev_buffer_bytes_ops = {
	.set = utfconv_dev_buffer_bytes_set,
	.get = param_get_uint,
};
module_param_cb(buffer_bytes, &utfconv_dev_buffer_bytes_ops,
		&utfconv_dev_buffer_bytes, 0444);
MODULE_PARM_DESC(buffer_bytes,
		 "Output buffer bytes per open file: a power of two in [4096, 16777216] (default 65536)");

/**
 * DOC: max_user_streams
 *
 * Module parameter ``max_user_streams``: files of /dev/utfconv one user
 * may have open (default 4096, 0: no limit; root may change it); open()
 * fails with -EMFILE beyond it. The uids a user maps into user namespaces
 * count as that user. With ``buffer_bytes`` it bounds what one user pins
 * where no memory cgroup limit applies.
 */
static unsigned int utfconv_dev_max_user_streams = 4096;
module_param_named(max_user_streams, utfconv_dev_max_user_streams, uint, 0644);
MODULE_PARM_DESC(max_user_streams,
		 "Most open files of /dev/utfconv per user (default 4096, 0: no limit)");

/* Open files per utfconv_dev_user_uid() as xarray values; uncharged. */
static DEFINE_XARRAY(utfconv_dev_users);

/*
 * The user a new stream counts against. A module cannot add a ucount
 * type, so this counts where ucounts would charge last: the creator of
 * the opener's outermost user namespace, or the euid in the initial
 * namespace or in one that root made.
 */
static kuid_t utfconv_dev_user_uid(void)
{
	const struct user_namespace *ns = current_user_ns();
	kuid_t owner = current_euid();

	for (; ns != &init_user_ns; ns = ns->parent)
		owner = ns->owner;
	if (uid_eq(owner, GLOBAL_ROOT_UID))
		return current_euid();
	return owner;
}

/*
 * Adds @delta (1 or -1: a file that @uid counts) to @uid's open files:
 * 0, -EMFILE at max_user_streams, -ENOMEM.
 */
static int utfconv_dev_user_add(kuid_t uid, long delta)
{
	unsigned int max = READ_ONCE(utfconv_dev_max_user_streams);
	void *old, *cur = xa_load(&utfconv_dev_users, __kuid_val(uid));
	unsigned long n;

	do {
		old = cur;
		n = xa_to_value(old) + delta;
		if (delta > 0 && max && n > max)
			return -EMFILE;
		cur = xa_cmpxchg(&utfconv_dev_users, __kuid_val(uid), old,
				 n ? xa_mk_value(n) : NULL, GFP_KERNEL);
	} while (cur != old && !xa_is_err(cur));
	return xa_err(cur);
}

/**
 * struct utfconv_dev_file - one open file of /dev/utfconv: one stream
 * @lock: guards all fields but @wait, @mask, @reset_req and @user
 * @wait: waiters for a change of @mask; each wake-up's key is the new mask
 * @mask: utfconv_dev_mask_locked() at the end of the last hold of @lock;
 *	read without it
 * @reset_req: bit 0: RESET requested, done by the next utfconv_dev_lock()
 * @state: the codec's state, the only copy of configuration and counters
 * @buf: output ring of utfconv_dev_buffer_bytes bytes, NULL until the
 *	first write or flush
 * @head: free-running count of output bytes put into @buf
 * @tail: free-running count of output bytes taken out of @buf
 * @full_avail: free bytes when the last write or flush could place
 *	nothing, 0 after progress; EPOLLOUT waits for more
 * @resets: resets done, so that a call spanning steps sees its stream go
 * @user: utfconv_dev_user_uid() of the opener: whose count this file is
 *
 * Invariant under @lock: 0 <= @head - @tail <= utfconv_dev_buffer_bytes.
 */
struct utfconv_dev_file {
	struct mutex lock;	/* guards the stream, see above */
	wait_queue_head_t wait;
	__poll_t mask;
	unsigned long reset_req;
	struct utfconv_state state;
	u8 *buf;
	unsigned int head, tail, full_avail;
	u64 resets;
	kuid_t user;
};

#define UTFCONV_DEV_FRESH_MASK	(EPOLLOUT | EPOLLWRNORM)
#define UTFCONV_DEV_ROOM_EVENTS	(EPOLLOUT | EPOLLERR | EPOLLHUP)

static unsigned int utfconv_dev_avail_locked(struct utfconv_dev_file *uf)
{
	return utfconv_dev_buffer_bytes - (uf->head - uf->tail);
}

/* A flush succeeded, or stopped the stream inside a character. */
static bool utfconv_dev_ended_locked(struct utfconv_dev_file *uf)
{
	return utfconv_ended(&uf->state) ||
	       utfconv_error(&uf->state) == -EINVAL;
}

/* Why no more input is taken: the error, -EPIPE after a flush, or 0. */
static int utfconv_dev_stopped_locked(struct utfconv_dev_file *uf)
{
	return utfconv_error(&uf->state) ?:
	       (utfconv_ended(&uf->state) ? -EPIPE : 0);
}

/*
 * EPOLLIN when read() would not block; EPOLLOUT when write() can take
 * input; EPOLLERR while a strict error holds; EPOLLHUP once the input
 * ended without one (a writer then gets -EPIPE).
 */
static __poll_t utfconv_dev_mask_locked(struct utfconv_dev_file *uf)
{
	unsigned int avail = utfconv_dev_avail_locked(uf);
	__poll_t mask = 0;

	if (uf->head != uf->tail || utfconv_error(&uf->state) ||
	    utfconv_dev_ended_locked(uf))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (utfconv_error(&uf->state))
		mask |= EPOLLERR;
	else if (utfconv_dev_ended_locked(uf))
		mask |= EPOLLHUP;
	else if (avail >= UTFCONV_DEV_MIN_ROOM && avail > uf->full_avail)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

/* Lockless: a pending reset's fresh mask, else the published one. */
static __poll_t utfconv_dev_mask(struct utfconv_dev_file *uf)
{
	return test_bit_acquire(0, &uf->reset_req) ?
	       UTFCONV_DEV_FRESH_MASK : READ_ONCE(uf->mask);
}

/*
 * Takes the lock (only tries if @nowait: -EAGAIN) and does a requested
 * reset: RESET never waits for the lock, its next holder resets.
 */
static int utfconv_dev_lock(struct utfconv_dev_file *uf, bool nowait)
{
	if (nowait ? !mutex_trylock(&uf->lock) :
		     mutex_lock_interruptible(&uf->lock))
		return nowait ? -EAGAIN : -ERESTARTSYS;
	if (test_bit(0, &uf->reset_req)) {
		utfconv_reset(&uf->state);
		uf->head = 0;
		uf->tail = 0;
		uf->full_avail = 0;
		uf->resets++;
		WRITE_ONCE(uf->mask, UTFCONV_DEV_FRESH_MASK);
		clear_bit_unlock(0, &uf->reset_req);
	}
	return 0;
}

/*
 * Publishes the readiness and unlocks; a change wakes the waiters after
 * the unlock, with the new mask as key (io_uring's POLL_ADD reports it).
 */
static void utfconv_dev_unlock(struct utfconv_dev_file *uf)
{
	__poll_t mask = utfconv_dev_mask_locked(uf);
	bool changed = mask != uf->mask;

	if (changed)
		WRITE_ONCE(uf->mask, mask);
	mutex_unlock(&uf->lock);
	if (changed)
		wake_up_interruptible_poll(&uf->wait, mask);
}

/* Waits for @events: 0 to retry, -EAGAIN for @nowait, -ERESTARTSYS. */
static int utfconv_dev_wait(struct utfconv_dev_file *uf, bool nowait,
			    __poll_t events)
{
	if (nowait)
		return -EAGAIN;
	return wait_event_interruptible(uf->wait,
					utfconv_dev_mask(uf) & events);
}

/* An %IOCB_NOWAIT call must not sleep in reclaim: -EAGAIN instead. */
static gfp_t utfconv_dev_gfp(bool nowait)
{
	return nowait ? GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN :
			GFP_KERNEL_ACCOUNT;
}

/*
 * Converts @src (NULL at a flush) into the ring, as utfconv_convert() but
 * -ENOSPC for -E2BIG without progress. Where the free space up to the end
 * is short and goes on at the start, a small buffer lets a character
 * straddle the end.
 */
static int utfconv_dev_fill_locked(struct utfconv_dev_file *uf, const u8 *src,
				   size_t src_bytes, size_t *src_used,
				   unsigned int cflags)
{
	const unsigned int size = utfconv_dev_buffer_bytes;
	u8 wrap[UTFCONV_DEV_WRAP_BYTES];
	unsigned int avail, off, span;
	size_t used, out, all_out = 0;
	u8 *dst;
	int ret;

	*src_used = 0;
	do {
		avail = utfconv_dev_avail_locked(uf);
		off = uf->head & (size - 1);
		span = min(avail, size - off);
		dst = uf->buf + off;
		if (span < avail && span < sizeof(wrap)) {
			dst = wrap;
			span = min_t(unsigned int, avail, sizeof(wrap));
		}
		ret = utfconv_convert(&uf->state, src ? src + *src_used : NULL,
				      src_bytes - *src_used, &used, dst, span,
				      &out, cflags);
		if (dst == wrap) {
			memcpy(uf->buf + off, wrap, min_t(size_t, out, size - off));
			if (out > size - off)
				memcpy(uf->buf, wrap + (size - off),
				       out - (size - off));
		}
		uf->head += out;
		*src_used += used;
		all_out += out;
	} while (ret == -E2BIG && (used || out));

	if (*src_used || all_out) {
		uf->full_avail = 0;
	} else if (ret == -E2BIG) {
		uf->full_avail = utfconv_dev_avail_locked(uf);
		ret = -ENOSPC;
	}
	return ret;
}

static bool utfconv_dev_nowait(const struct kiocb *iocb)
{
	return (iocb->ki_filp->f_flags & O_NONBLOCK) ||
	       (iocb->ki_flags & IOCB_NOWAIT);
}

/**
 * utfconv_dev_open() - open a new conversion stream
 * @inode: inode of /dev/utfconv
 * @file: the new file
 *
 * The stream starts as UTF-8 -> UTF-16LE, strict; no positional I/O;
 * %IOCB_NOWAIT honoured, so io_uring runs reads and writes inline.
 *
 * Context: Process context; may sleep.
 * Return: 0, -EMFILE at the caller's max_user_streams, -ENOMEM.
 */
static int utfconv_dev_open(struct inode *inode, struct file *file)
{
	kuid_t user = utfconv_dev_user_uid();
	struct utfconv_dev_file *uf;
	int ret = utfconv_dev_user_add(user, 1);

	if (ret)
		return ret;
	uf = kzalloc(sizeof(*uf), GFP_KERNEL_ACCOUNT);
	if (!uf) {
		utfconv_dev_user_add(user, -1);
		return -ENOMEM;
	}
	uf->user = user;
	utfconv_init(&uf->state, UTFCONV_UTF8, UTFCONV_UTF16LE, UTFCONV_STRICT,
		     0);
	mutex_init(&uf->lock);
	init_waitqueue_head(&uf->wait);
	uf->mask = UTFCONV_DEV_FRESH_MASK;
	file->private_data = uf;
	file->f_mode |= FMODE_NOWAIT;
	return stream_open(inode, file);
}

static int utfconv_dev_release(struct inode *inode, struct file *file)
{
	struct utfconv_dev_file *uf = file->private_data;

	utfconv_dev_user_add(uf->user, -1);
	mutex_destroy(&uf->lock);
	kvfree(uf->buf);
	kfree(uf);
	return 0;
}

/* Bytes copied, else 0 (EOF), the stream's error, -EAGAIN or -EFAULT. */
static ssize_t utfconv_dev_read_locked(struct utfconv_dev_file *uf,
				       struct iov_iter *to)
{
	const unsigned int size = utfconv_dev_buffer_bytes;
	unsigned int off, span;
	size_t copied;
	ssize_t done = 0;

	while (uf->head != uf->tail) {
		off = uf->tail & (size - 1);
		span = min(uf->head - uf->tail, size - off);
		copied = copy_to_iter(uf->buf + off, span, to);
		uf->tail += copied;
		done += copied;
		if (copied < span)
			return done ? done : -EFAULT;
	}
	if (done)
		return done;
	return utfconv_error(&uf->state) ?:
	       (utfconv_dev_ended_locked(uf) ? 0 : -EAGAIN);
}

/**
 * utfconv_dev_read_iter() - read converted bytes
 * @iocb: the call: its file is the stream
 * @to: user buffers (read(), readv(), io_uring); any sizes
 *
 * As from a pipe: returns what is ready, sleeping only while nothing is,
 * the input has not ended and no strict error holds.
 *
 * Context: Process context; may sleep unless %IOCB_NOWAIT.
 * Return:
 * * >0 - bytes copied to @to (which is advanced by as many)
 * * 0 - @to is empty, or end of file: flushed and all output read
 * * -EILSEQ - no output left and the stream stopped at ill-formed input
 * * -EINVAL - no output left and the stream ended inside a character
 * * -EAGAIN - it would wait, and the file is non-blocking or the call
 *   %IOCB_NOWAIT
 * * -ERESTARTSYS - a signal came before any byte was copied
 * * -EFAULT - the first buffer of @to is not writable; nothing was taken
 */
static ssize_t utfconv_dev_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct utfconv_dev_file *uf = iocb->ki_filp->private_data;
	ssize_t ret;

	if (!iov_iter_count(to))
		return 0;
	for (;;) {
		ret = utfconv_dev_lock(uf, iocb->ki_flags & IOCB_NOWAIT);
		if (ret)
			return ret;
		ret = utfconv_dev_read_locked(uf, to);
		utfconv_dev_unlock(uf);
		if (ret != -EAGAIN)
			return ret;
		ret = utfconv_dev_wait(uf, utfconv_dev_nowait(iocb), EPOLLIN);
		if (ret)
			return ret;
	}
}

/*
 * One step of a write or flush (@cflags %UTFCONV_END) under the lock;
 * @resets is the stream's count when the call began. Returns 0 when all
 * was done, -E2BIG after progress with more to do, -ENOSPC when nothing
 * fits, -ECANCELED if a reset discarded the call's stream, -EPIPE for a
 * write after a flush, the stream's error, -ENOMEM (-EAGAIN if @nowait),
 * or the lock's errors.
 */
static int utfconv_dev_step(struct utfconv_dev_file *uf, const u8 *src,
			    size_t src_bytes, size_t *src_used, u64 *resets,
			    bool started, unsigned int cflags, bool nowait)
{
	int ret;

	*src_used = 0;
	ret = utfconv_dev_lock(uf, nowait);
	if (ret)
		return ret;
	if (uf->resets != *resets && started)
		ret = -ECANCELED;
	*resets = uf->resets;
	if (!ret)
		ret = utfconv_dev_stopped_locked(uf);
	if (!ret && !uf->buf)
		uf->buf = kvmalloc(utfconv_dev_buffer_bytes,
				   utfconv_dev_gfp(nowait));
	if (!ret && !uf->buf)
		ret = nowait ? -EAGAIN : -ENOMEM;
	if (!ret)
		ret = utfconv_dev_fill_locked(uf, src, src_bytes, src_used,
					      cflags);
	utfconv_dev_unlock(uf);
	if (ret == -EPIPE && cflags)
		return 0;
	return ret;
}

/**
 * utfconv_dev_write_iter() - convert input bytes
 * @iocb: the call: its file is the stream
 * @from: user buffers holding the input (write(), writev(), io_uring);
 *	split anywhere, also inside a character between vector elements
 *
 * Accepts the input whose output fits (a character's tail is held
 * pending), in steps of %UTFCONV_DEV_IN_BYTES; a signal ends it between
 * steps. It sleeps only while no input can be accepted. @from is
 * advanced by the bytes accepted.
 *
 * Context: Process context; may sleep unless %IOCB_NOWAIT.
 * Return:
 * * >0 - input bytes accepted, possibly fewer than @from holds (buffer
 *   full, signal, fault, reset, or ill-formed input after them)
 * * 0 - @from is empty
 * * -EILSEQ - the stream stopped at ill-formed input (now or before)
 * * -EINVAL - a flush found an incomplete character; the stream stopped
 * * -EPIPE - the input was ended by %UTFCONV_IOC_FLUSH
 * * -EAGAIN - it would wait, and the file is non-blocking or the call
 *   %IOCB_NOWAIT
 * * -ERESTARTSYS - a signal came before any byte was accepted
 * * -EFAULT - the first buffer of @from is not readable
 * * -ENOMEM - out of memory; -EAGAIN instead for %IOCB_NOWAIT, whose
 *   allocations do not sleep
 */
static ssize_t utfconv_dev_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct utfconv_dev_file *uf = iocb->ki_filp->private_data;
	size_t count = iov_iter_count(from);
	size_t done = 0, have, used;
	u64 resets = 0;
	int ret = 0;
	u8 *in;

	if (!count)
		return 0;
	in = kmalloc(min_t(size_t, count, UTFCONV_DEV_IN_BYTES),
		     utfconv_dev_gfp(iocb->ki_flags & IOCB_NOWAIT));
	if (!in)
		return iocb->ki_flags & IOCB_NOWAIT ? -EAGAIN : -ENOMEM;
	while (done < count) {
		have = copy_from_iter(in, min_t(size_t, count - done,
						UTFCONV_DEV_IN_BYTES), from);
		if (!have) {
			ret = -EFAULT;
			break;
		}
		ret = utfconv_dev_step(uf, in, have, &used, &resets, done > 0,
				       0, iocb->ki_flags & IOCB_NOWAIT);
		done += used;
		iov_iter_revert(from, have - used);
		if (ret == -ENOSPC && !done)
			ret = utfconv_dev_wait(uf, utfconv_dev_nowait(iocb),
					       UTFCONV_DEV_ROOM_EVENTS);
		else if (ret == -E2BIG)
			ret = 0;
		if (ret)
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		cond_resched();
	}
	kfree(in);
	return done ? done : ret;
}

/* Without the lock: utfconv_dev_unlock() publishes the mask before it wakes. */
static __poll_t utfconv_dev_poll(struct file *file, poll_table *wait)
{
	struct utfconv_dev_file *uf = file->private_data;

	poll_wait(file, &uf->wait, wait);
	return utfconv_dev_mask(uf);
}

/* The sizes are part of the commands, matched whole. */
static_assert(sizeof(struct utfconv_info) == 64);
static_assert(sizeof(struct utfconv_config) == 32);
static_assert(sizeof(struct utfconv_status) == 80);
static_assert(sizeof(struct utfconv_convert) == 96);

/* The UAPI's values are the library's: they pass to it unchanged. */
static_assert(UTFCONV_ENC_UTF8 == UTFCONV_UTF8);
static_assert(UTFCONV_ENC_UTF16LE == UTFCONV_UTF16LE);
static_assert(UTFCONV_ENC_UTF16BE == UTFCONV_UTF16BE);
static_assert(UTFCONV_ENC_UTF16 == UTFCONV_UTF16);
static_assert(UTFCONV_POLICY_STRICT == UTFCONV_STRICT);
static_assert(UTFCONV_POLICY_REPLACE == UTFCONV_REPLACE);
static_assert(UTFCONV_POLICY_SKIP == UTFCONV_SKIP);
static_assert(UTFCONV_POLICY_WTF8 == UTFCONV_WTF8);
static_assert(UTFCONV_FLAG_STRIP_BOM == UTFCONV_STRIP_BOM);
static_assert(UTFCONV_FLAG_EMIT_BOM == UTFCONV_EMIT_BOM);
static_assert((UTFCONV_FLAG_STRIP_BOM | UTFCONV_FLAG_EMIT_BOM) ==
	      UTFCONV_FLAGS_ALL);
static_assert(UTFCONV_ERR_NONE == UTFCONV_NO_ERROR);
static_assert(UTFCONV_ERR_ILLFORMED == UTFCONV_ILLFORMED);
static_assert(UTFCONV_ERR_INCOMPLETE == UTFCONV_INCOMPLETE);

/* Checks a SET_CONFIG or CONVERT configuration: 0 or -EINVAL. */
static int utfconv_dev_check_config(u32 source, u32 target, u32 policy,
				    u32 flags, const void *padding,
				    size_t padding_bytes)
{
	if (!utfconv_encodings_valid(source, target) ||
	    policy > UTFCONV_POLICY_WTF8 || (flags & ~UTFCONV_FLAGS_ALL) ||
	    memchr_inv(padding, 0, padding_bytes))
		return -EINVAL;
	return 0;
}

/* %UTFCONV_IOC_GET_INFO: 0 or -EFAULT. */
static long utfconv_dev_ioctl_get_info(void __user *argp)
{
	struct utfconv_info info;

	memset(&info, 0, sizeof(info));
	info.sources = BIT(UTFCONV_ENC_UTF8) | BIT(UTFCONV_ENC_UTF16LE) |
		       BIT(UTFCONV_ENC_UTF16BE) | BIT(UTFCONV_ENC_UTF16);
	info.targets = BIT(UTFCONV_ENC_UTF8) | BIT(UTFCONV_ENC_UTF16LE) |
		       BIT(UTFCONV_ENC_UTF16BE);
	info.policies = GENMASK(UTFCONV_POLICY_WTF8, UTFCONV_POLICY_STRICT);
	info.flags = UTFCONV_FLAGS_ALL;
	info.buffer_bytes = utfconv_dev_buffer_bytes;
	info.max_pending_bytes = UTFCONV_MAX_PENDING;

	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

/*
 * Not ended, not failed, no input (pending bytes count in bytes_in), no
 * output (ready bytes count in bytes_out): it may be configured.
 */
static bool utfconv_dev_fresh_locked(struct utfconv_dev_file *uf)
{
	return !utfconv_dev_stopped_locked(uf) && !uf->state.bytes_in &&
	       !uf->state.bytes_out;
}

/*
 * %UTFCONV_IOC_SET_CONFIG: 0, or -EFAULT, -EINVAL, -EBUSY, -ERESTARTSYS
 * with the stream unchanged.
 */
static long utfconv_dev_ioctl_set_config(struct utfconv_dev_file *uf,
					 void __user *argp)
{
	struct utfconv_config config;
	int ret;

	if (copy_from_user(&config, argp, sizeof(config)))
		return -EFAULT;
	ret = utfconv_dev_check_config(config.source, config.target,
				       config.policy, config.flags,
				       config.padding, sizeof(config.padding));
	if (ret)
		return ret;
	ret = utfconv_dev_lock(uf, false);
	if (ret)
		return ret;
	if (!utfconv_dev_fresh_locked(uf))
		ret = -EBUSY;
	else
		ret = utfconv_init(&uf->state, config.source, config.target,
				   config.policy, config.flags);
	utfconv_dev_unlock(uf);
	return ret;
}

/* GET_CONFIG, GET_STATUS and fdinfo: 0 or -ERESTARTSYS. */
static int utfconv_dev_snapshot(struct utfconv_dev_file *uf,
				struct utfconv_config *config,
				struct utfconv_status *status)
{
	const struct utfconv_state *st = &uf->state;
	int ret;

	memset(config, 0, sizeof(*config));
	memset(status, 0, sizeof(*status));
	ret = utfconv_dev_lock(uf, false);
	if (ret)
		return ret;
	config->source = st->source;
	config->target = st->target;
	config->policy = st->policy;
	config->flags = st->flags;
	status->bytes_in = st->bytes_in;
	status->bytes_out = st->bytes_out;
	status->code_points = st->code_points;
	status->replacements = st->replacements;
	status->error_kind = st->error_kind;
	if (st->error_kind != UTFCONV_NO_ERROR)
		status->error_offset = st->error_offset;
	if (utfconv_dev_ended_locked(uf))
		status->state |= UTFCONV_STATE_ENDED;
	if (utfconv_error(st))
		status->state |= UTFCONV_STATE_FAILED;
	status->pending_bytes = utfconv_pending_bytes(st);
	status->ready_bytes = uf->head - uf->tail;
	utfconv_dev_unlock(uf);
	return 0;
}

/* %UTFCONV_IOC_GET_CONFIG and GET_STATUS: 0, -EFAULT or -ERESTARTSYS. */
static long utfconv_dev_ioctl_get(struct utfconv_dev_file *uf,
				  void __user *argp, bool status)
{
	struct utfconv_config config;
	struct utfconv_status st;
	int ret = utfconv_dev_snapshot(uf, &config, &st);

	if (ret)
		return ret;
	if (status)
		return copy_to_user(argp, &st, sizeof(st)) ? -EFAULT : 0;
	return copy_to_user(argp, &config, sizeof(config)) ? -EFAULT : 0;
}

/* %UTFCONV_IOC_FLUSH: steps until the input ended, waiting for room. */
static long utfconv_dev_ioctl_flush(struct utfconv_dev_file *uf, bool nonblock)
{
	bool started = false;
	u64 resets = 0;
	size_t used;
	int ret;

	do {
		ret = utfconv_dev_step(uf, NULL, 0, &used, &resets, started,
				       UTFCONV_END, false);
		started = true;
		if (ret == -ENOSPC)
			ret = utfconv_dev_wait(uf, nonblock,
					       UTFCONV_DEV_ROOM_EVENTS);
		else if (ret == -E2BIG)
			ret = 0;
		else if (!ret)
			return 0;
	} while (!ret);
	return ret;
}

/* One input piece of CONVERT; on -EFAULT @st is as before the step. */
static int utfconv_dev_convert_step(const struct utfconv_convert *cv,
				    struct utfconv_state *st, const u8 *in_buf,
				    size_t chunk, unsigned int cflags,
				    u8 *out_buf, u64 *dst_done)
{
	u8 __user *dst = u64_to_user_ptr(cv->dst);
	size_t src_used, dst_used, room, pos = 0;
	struct utfconv_state before;
	bool full;
	int ret;

	do {
		room = min_t(u64, cv->dst_bytes - *dst_done,
			     UTFCONV_DEV_OUT_BYTES);
		full = room == cv->dst_bytes - *dst_done;
		before = *st;
		ret = utfconv_convert(st, in_buf + pos, chunk - pos, &src_used,
				      out_buf, room, &dst_used, cflags);
		if (copy_to_user(dst + *dst_done, out_buf, dst_used)) {
			*st = before;
			return -EFAULT;
		}
		pos += src_used;
		*dst_done += dst_used;
	} while (ret == -E2BIG && !full && (src_used || dst_used));
	return ret;
}

/*
 * CONVERT's work on a validated request: @cv->dst_used counts the output
 * of the steps that reached dst whole, @cv->src_used their input; dst may
 * be written past it on -EFAULT. Errors as utfconv_dev_ioctl().
 */
static int utfconv_dev_convert_user(struct utfconv_convert *cv, u8 *in_buf,
				    u8 *out_buf)
{
	const u8 __user *src = u64_to_user_ptr(cv->src);
	struct utfconv_state st;
	u64 src_done = 0, dst_done = 0;
	unsigned int cflags;
	size_t chunk;
	int ret;

	ret = utfconv_init(&st, cv->source, cv->target, cv->policy, cv->flags);
	if (ret)
		return ret;
	while (!ret) {
		chunk = min_t(u64, cv->src_bytes - src_done,
			      UTFCONV_DEV_IN_BYTES);
		if (copy_from_user(in_buf, src + src_done, chunk)) {
			ret = -EFAULT;
			break;
		}
		src_done += chunk;
		cflags = src_done == cv->src_bytes ? UTFCONV_END : 0;
		ret = utfconv_dev_convert_step(cv, &st, in_buf, chunk, cflags,
					       out_buf, &dst_done);
		if (ret || cflags)
			break;
		/* Not io_uring's task work: only a signal. */
		if (task_sigpending(current))
			ret = -EINTR;
		cond_resched();
	}
	if (ret == -EILSEQ || ret == -EINVAL)
		cv->src_used = st.error_offset;
	else
		cv->src_used = st.bytes_in - utfconv_pending_bytes(&st);
	cv->dst_used = dst_done;
	cv->error_kind = st.error_kind;
	cv->error_offset = st.error_kind ? st.error_offset : 0;
	cv->replacements = st.replacements;
	return ret;
}

/* Whether [@addr, @end = @addr + @bytes) is a user range. */
static bool utfconv_dev_user_range(u64 addr, u64 bytes, u64 *end)
{
	return !check_add_overflow(addr, bytes, end) &&
	       (uintptr_t)addr == addr && (size_t)bytes == bytes &&
	       access_ok(u64_to_user_ptr(addr), bytes);
}

/**
 * utfconv_dev_ioctl_convert() - %UTFCONV_IOC_CONVERT
 * @argp: user address of a &struct utfconv_convert
 *
 * Converts through bounce buffers, without the file's stream.
 *
 * Context: Process context; may sleep.
 * Return: as utfconv_dev_convert_user(), or -EINVAL for an invalid request
 * or overlapping buffers, -EFAULT if @argp is not accessible or a
 * buffer's range wraps or leaves user space (nothing written), -ENOMEM.
 */
static long utfconv_dev_ioctl_convert(void __user *argp)
{
	struct utfconv_convert cv;
	u64 src_end, dst_end;
	u8 *out_buf, *in_buf;
	int ret;

	if (copy_from_user(&cv, argp, sizeof(cv)))
		return -EFAULT;
	ret = utfconv_dev_check_config(cv.source, cv.target, cv.policy,
				       cv.flags, cv.padding, sizeof(cv.padding));
	if (ret)
		return ret;
	if (!utfconv_dev_user_range(cv.src, cv.src_bytes, &src_end) ||
	    !utfconv_dev_user_range(cv.dst, cv.dst_bytes, &dst_end))
		return -EFAULT;
	if (cv.src_bytes && cv.dst_bytes && cv.src < dst_end &&
	    cv.dst < src_end)
		return -EINVAL;
	in_buf = kmalloc(UTFCONV_DEV_IN_BYTES, GFP_KERNEL_ACCOUNT);
	out_buf = kmalloc(UTFCONV_DEV_OUT_BYTES, GFP_KERNEL_ACCOUNT);
	if (in_buf && out_buf)
		ret = utfconv_dev_convert_user(&cv, in_buf, out_buf);
	else
		ret = -ENOMEM;
	kfree(out_buf);
	kfree(in_buf);
	if (ret == -ENOMEM)
		return ret;
	return copy_to_user(argp, &cv, sizeof(cv)) ? -EFAULT : ret;
}

/**
 * utfconv_dev_ioctl() - control a stream, or convert one buffer
 * @file: the stream
 * @cmd: UTFCONV_IOC_*
 * @arg: user address of the command's structure, if it has one
 *
 * Documentation/userspace-api/ has a page for each command. A command is
 * matched whole, its size included; features come as new commands or
 * GET_INFO bits.
 *
 * Context: Process context; may sleep (for the stream's lock, for room,
 * and in CONVERT's steps).
 * Return:
 * * 0 - success
 * * -EINVAL - SET_CONFIG or CONVERT: unknown or unsupported encodings,
 *   policy or flag bits, nonzero padding, overlapping src and dst; FLUSH
 *   or CONVERT: the input ends inside a character (strict, wtf8)
 * * -EILSEQ - FLUSH: the stream stopped at ill-formed input; CONVERT:
 *   ill-formed input (strict, wtf8)
 * * -E2BIG - CONVERT: the next character does not fit into dst
 * * -EBUSY - SET_CONFIG on a stream that is not fresh
 * * -EAGAIN - FLUSH: no room for the final output, non-blocking file
 * * -ECANCELED - FLUSH: a RESET discarded the stream it was ending
 * * -EFAULT - @arg, src or dst is not accessible
 * * -EINTR - CONVERT: a signal is pending and input is left
 * * -ENOMEM - FLUSH or CONVERT: out of memory
 * * -ERESTARTSYS - a signal came while waiting for the lock or for room
 * * -ENOIOCTLCMD - unknown @cmd (-ENOTTY to userspace)
 */
static long utfconv_dev_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct utfconv_dev_file *uf = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case UTFCONV_IOC_GET_INFO:
		return utfconv_dev_ioctl_get_info(argp);
	case UTFCONV_IOC_SET_CONFIG:
		return utfconv_dev_ioctl_set_config(uf, argp);
	case UTFCONV_IOC_GET_CONFIG:
		return utfconv_dev_ioctl_get(uf, argp, false);
	case UTFCONV_IOC_GET_STATUS:
		return utfconv_dev_ioctl_get(uf, argp, true);
	case UTFCONV_IOC_FLUSH:
		return utfconv_dev_ioctl_flush(uf, file->f_flags & O_NONBLOCK);
	case UTFCONV_IOC_RESET:
		/*
		 * At once: the next lock holder resets. The wake-up's queue
		 * lock orders the bit before a waiter's look.
		 */
		set_bit(0, &uf->reset_req);
		wake_up_interruptible_poll(&uf->wait, UTFCONV_DEV_FRESH_MASK);
		return 0;
	case UTFCONV_IOC_CONVERT:
		return utfconv_dev_ioctl_convert(argp);
	}
	return -ENOIOCTLCMD;
}

/*
 * /proc/<pid>/fdinfo/<fd>: a "utfconv-<name>:\t<value>" line per field of
 * GET_CONFIG and GET_STATUS from one snapshot; none if a signal comes first.
 */
static void utfconv_dev_show_fdinfo(struct seq_file *m, struct file *file)
{
	static const char *const encs[] = {
		[UTFCONV_ENC_UTF8] = "UTF-8",
		[UTFCONV_ENC_UTF16LE] = "UTF-16LE",
		[UTFCONV_ENC_UTF16BE] = "UTF-16BE",
		[UTFCONV_ENC_UTF16] = "UTF-16",
	};
	static const char *const kinds[] = {
		[UTFCONV_ERR_NONE] = "none",
		[UTFCONV_ERR_ILLFORMED] = "ill-formed",
		[UTFCONV_ERR_INCOMPLETE] = "incomplete",
	};
	static const char *const policies[] = {
		[UTFCONV_POLICY_STRICT] = "strict",
		[UTFCONV_POLICY_REPLACE] = "replace",
		[UTFCONV_POLICY_SKIP] = "skip",
		[UTFCONV_POLICY_WTF8] = "wtf8",
	};
	struct utfconv_config config;
	struct utfconv_status st;

	if (utfconv_dev_snapshot(file->private_data, &config, &st))
		return;
	/* config comes from a stream utfconv_init() took: encodings named */
	seq_printf(m, "utfconv-source:\t%s\n", encs[config.source]);
	seq_printf(m, "utfconv-target:\t%s\n", encs[config.target]);
	seq_printf(m, "utfconv-policy:\t%s\n",
		   policies[min_t(u32, config.policy, UTFCONV_POLICY_WTF8)]);
	seq_printf(m, "utfconv-flags:\t%#x\n", config.flags);
	seq_printf(m, "utfconv-bytes-in:\t%llu\n", st.bytes_in);
	seq_printf(m, "utfconv-bytes-out:\t%llu\n", st.bytes_out);
	seq_printf(m, "utfconv-code-points:\t%llu\n", st.code_points);
	seq_printf(m, "utfconv-replacements:\t%llu\n", st.replacements);
	seq_printf(m, "utfconv-error-kind:\t%s\n",
		   kinds[min_t(u32, st.error_kind, UTFCONV_ERR_INCOMPLETE)]);
	seq_printf(m, "utfconv-error-offset:\t%llu\n", st.error_offset);
	seq_printf(m, "utfconv-state:\t%s\n",
		   st.state & UTFCONV_STATE_FAILED ? "failed" :
		   st.state & UTFCONV_STATE_ENDED ? "ended" : "open");
	seq_printf(m, "utfconv-pending-bytes:\t%u\n", st.pending_bytes);
	seq_printf(m, "utfconv-ready-bytes:\t%u\n", st.ready_bytes);
}

static const struct file_operations utfconv_dev_fops = {
	.owner		= THIS_MODULE,
	.open		= utfconv_dev_open,
	.release	= utfconv_dev_release,
	.read_iter	= utfconv_dev_read_iter,
	.write_iter	= utfconv_dev_write_iter,
	.poll		= utfconv_dev_poll,
	.unlocked_ioctl	= utfconv_dev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.show_fdinfo	= utfconv_dev_show_fdinfo,
};

static struct miscdevice utfconv_dev_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= "utfconv",
	.fops		= &utfconv_dev_fops,
	.mode		= 0666,
};

module_misc_device(utfconv_dev_misc);

MODULE_DESCRIPTION("UTF-8 <-> UTF-16 conversion device /dev/utfconv");
MODULE_AUTHOR("utfconv developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0");
