// SPDX-License-Identifier: GPL-2.0
/*
 * utfconv_dev.c - /dev/utfconv, UTF-8 <-> UTF-16 conversion streams
 *
 * Every open file of the misc device /dev/utfconv is an independent
 * conversion stream: write() feeds input bytes, read() returns converted
 * bytes, ioctls select the direction and options, end the input, report
 * the counters and reset the stream. UTFCONV_IOC_CONVERT converts one
 * user buffer into another in one call without touching the stream.
 *
 * The device touches no state shared between open files, so it is
 * mode 0666: any user may convert text. The memory an open file holds
 * (its state, and its output buffer from the first write on) is charged
 * to the opener's memory cgroup and bounded per user by
 * max_user_streams; calls charge their bounce buffers while they run.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/kfifo.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/user_namespace.h>
#include <linux/utfconv.h>
#include <linux/wait.h>

#define UTFCONV_DEV_NAME		"utfconv"

/*
 * Input bytes copied from userspace and converted under the stream's lock
 * in one step of write(), and per step of UTFCONV_IOC_CONVERT.
 */
#define UTFCONV_IN_BYTES		4096
/*
 * Output bytes produced in one step of UTFCONV_IOC_CONVERT: room for the
 * worst case of a full input step (UTF-8 -> UTF-16: 2 bytes per input
 * byte), so that a step is normally limited by the input only.
 */
#define UTFCONV_OUT_BYTES		(2 * UTFCONV_IN_BYTES)
/*
 * Each bounce buffer of a CONVERT call is a slab object of its own (6.1's
 * SLOB has no kmalloc caches: its limit is a page, and nothing to keep).
 */
static_assert(IS_ENABLED(CONFIG_SLOB) ||
	      UTFCONV_OUT_BYTES <= KMALLOC_MAX_CACHE_SIZE);
/*
 * Free output bytes that hold any single character the codec writes in
 * one piece: a 4-byte UTF-8 sequence or a UTF-16 surrogate pair.
 */
#define UTFCONV_MIN_ROOM		4
/*
 * Bytes of the buffer through which a step writes when the free space of
 * the output buffer wraps around its end within a few bytes, so that a
 * character may straddle the end: a BOM, a replacement and a character.
 */
#define UTFCONV_WRAP_BYTES		16
/*
 * Bounce bytes a call keeps on its stack: short writes, the calls of
 * programs that convert a few bytes at a time, allocate nothing.
 */
#define UTFCONV_STACK_BYTES		128

#define UTFCONV_BUFFER_MIN		4096U
#define UTFCONV_BUFFER_MAX		(16U << 20)
#define UTFCONV_BUFFER_DEFAULT		65536U

/**
 * DOC: buffer_bytes
 *
 * Module parameter ``buffer_bytes``: capacity in bytes of the output
 * buffer of each open file of /dev/utfconv (default 65536). It must be a
 * power of two from 4096 to 16777216; loading the module with any other
 * value, a number too large for any integer type included, fails with
 * -EINVAL and a message in the kernel log. It is fixed once the module
 * is loaded (mode 0444) and reported by %UTFCONV_IOC_GET_INFO.
 */
static unsigned int utfconv_buffer_bytes = UTFCONV_BUFFER_DEFAULT;

/**
 * utfconv_buffer_bytes_set() - parse and check ``buffer_bytes``
 * @val: the value given to the module
 * @kp: the parameter
 *
 * Context: Module load; the value is parsed before the module's init.
 * Return: 0, or -EINVAL for anything but a power of two in [4096, 16 MiB]
 * (kstrtouint()'s -ERANGE for values from 2^32 on included: the
 * parameter has one documented error).
 */
static int utfconv_buffer_bytes_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < UTFCONV_BUFFER_MIN ||
	    v > UTFCONV_BUFFER_MAX || !is_power_of_2(v)) {
		pr_err("buffer_bytes=%s: must be a power of two from %u to %u\n",
		       val, UTFCONV_BUFFER_MIN, UTFCONV_BUFFER_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops utfconv_buffer_bytes_ops = {
	.set = utfconv_buffer_bytes_set,
	.get = param_get_uint,
};
module_param_cb(buffer_bytes, &utfconv_buffer_bytes_ops,
		&utfconv_buffer_bytes, 0444);
MODULE_PARM_DESC(buffer_bytes,
		 "Output buffer bytes per open file: a power of two in [4096, 16777216] (default 65536)");

/**
 * DOC: max_user_streams
 *
 * Module parameter ``max_user_streams``: how many files of /dev/utfconv
 * one user may have open at once (default 4096, 0 for no limit). The
 * user is the opener's effective uid, or in a user namespace that an
 * unprivileged user created (or one below it) that user (see
 * utfconv_user_uid()). Each user has a limit of its own, so a user at
 * its limit cannot make another user's open() fail. The limit counts
 * files, not bytes: an open file holds its &struct utfconv_file from
 * open() on and its output buffer (``buffer_bytes``) from its first
 * write() or flush on, so one user pins at most max_user_streams times
 * (``buffer_bytes`` plus the state), 4096 * 64 KiB = 256 MiB and the
 * states with the defaults. All of it is charged to the opener's memory
 * cgroup, which is what limits bytes; where no cgroup limit applies this
 * cap is the bound (lower it, or ``buffer_bytes``, to pin less). open()
 * fails with -EMFILE when it is reached, as it does at inotify's
 * max_user_instances. A user who maps other uids into a user namespace
 * (subordinate uids) has this one limit for all of them, and the
 * containers a user made share that user's. Root may change it at run
 * time.
 */
static unsigned int utfconv_max_user_streams = 4096;
module_param_named(max_user_streams, utfconv_max_user_streams, uint, 0644);
MODULE_PARM_DESC(max_user_streams,
		 "Most open files of /dev/utfconv per user (default 4096, 0: no limit)");

/**
 * struct utfconv_user - open files of /dev/utfconv of one user
 * @node: in utfconv_users, under utfconv_users_lock
 * @uid: the user: utfconv_user_uid() of the openers
 * @streams: files open; the entry is freed when it drops to 0
 *
 * One entry is shared by all open files of a user, whatever their
 * openers' memory cgroups, and lives until the last of them is closed, so
 * it is not charged to any cgroup: charging the first opener would bill
 * one cgroup for an object that others keep alive after it left. It is
 * bounded without that: one entry per user with a file open, each a few
 * dozen bytes beside the charged state of every such file.
 */
struct utfconv_user {
	struct hlist_node node;
	kuid_t uid;
	unsigned int streams;
};

static DEFINE_HASHTABLE(utfconv_users, 6);
static DEFINE_SPINLOCK(utfconv_users_lock);

/**
 * utfconv_user_find() - look up the entry of a user
 * @uid: the user
 *
 * Context: Holds utfconv_users_lock.
 * Return: the entry, or NULL if @uid has no file open.
 */
static struct utfconv_user *utfconv_user_find(kuid_t uid)
{
	struct utfconv_user *u;

	lockdep_assert_held(&utfconv_users_lock);
	hash_for_each_possible(utfconv_users, u, node, __kuid_val(uid))
		if (uid_eq(u->uid, uid))
			return u;
	return NULL;
}

/**
 * utfconv_user_uid() - the user a new stream counts against
 *
 * The kernel's per-user counts (ucounts) charge a user namespace's use to
 * its owner in the parent namespace too, up to the initial one; a module
 * cannot add a ucount type, so this counts at the top level only: in the
 * initial user namespace the opener's effective uid, in any other the
 * uid that created its outermost ancestor below the initial namespace,
 * on whose behalf every uid mapped into it runs: uids mapped into a
 * namespace a user made therefore cannot raise that user's limit. Where
 * that uid is root, the opener's effective (kernel) uid counts, so that
 * the users of root's containers never share a count with root.
 *
 * Context: Process context.
 * Return: the kernel uid to count the stream against.
 */
static kuid_t utfconv_user_uid(void)
{
	const struct user_namespace *ns = current_user_ns();
	kuid_t owner = current_euid();

	for (; ns != &init_user_ns; ns = ns->parent)
		owner = ns->owner;
	/*
	 * Namespaces that root made (containers, PrivateUsers=) run users
	 * that root gave their own kernel uids: each of them is counted
	 * alone, so that none of them can exhaust root's count.
	 */
	if (uid_eq(owner, GLOBAL_ROOT_UID))
		return current_euid();
	return owner;
}

/**
 * utfconv_user_get() - count one more open file of the calling user
 *
 * Context: Process context; may sleep (allocates).
 * Return: the caller's entry, or ERR_PTR(-EMFILE) if the user has
 * max_user_streams files open already, ERR_PTR(-ENOMEM).
 */
static struct utfconv_user *utfconv_user_get(void)
{
	unsigned int max = READ_ONCE(utfconv_max_user_streams);
	kuid_t uid = utfconv_user_uid();
	struct utfconv_user *fresh;
	struct utfconv_user *u;

	/*
	 * Allocated before the lock, freed below if the user has one; not
	 * charged: shared by the user's openers (struct utfconv_user).
	 */
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return ERR_PTR(-ENOMEM);

	spin_lock(&utfconv_users_lock);
	u = utfconv_user_find(uid);
	if (!u) {
		u = fresh;
		fresh = NULL;
		u->uid = uid;
		hash_add(utfconv_users, &u->node, __kuid_val(uid));
	}
	if (max && u->streams >= max)
		u = ERR_PTR(-EMFILE);	/* streams > 0: not a fresh entry */
	else
		u->streams++;
	spin_unlock(&utfconv_users_lock);

	kfree(fresh);
	return u;
}

/**
 * utfconv_user_put() - count one open file of a user less
 * @u: the entry utfconv_user_get() returned
 *
 * Context: Process context.
 */
static void utfconv_user_put(struct utfconv_user *u)
{
	bool last;

	spin_lock(&utfconv_users_lock);
	last = !--u->streams;
	if (last)
		hash_del(&u->node);
	spin_unlock(&utfconv_users_lock);
	if (last)
		kfree(u);
}

/**
 * struct utfconv_file - one open file of /dev/utfconv: one stream
 * @lock: guards @state, @fifo, @taken, @resets and @full_avail; held only
 *	for bounded work (one step of at most %UTFCONV_IN_BYTES input
 *	bytes), never across a user copy or a sleep. Taken and dropped by
 *	utfconv_lock() and utfconv_unlock() only.
 * @wait: readers wait here for output, the end of the stream or an
 *	error; writers and flushes for room in @fifo (output read, or a
 *	reset); poll() for either. One queue, so that aio's IOCB_CMD_POLL,
 *	which takes one per file, works; every wake-up carries @mask as its
 *	key, and the waiters whose events it lacks are not woken.
 * @mask: the stream's readiness, EPOLL* bits as utfconv_poll() reports
 *	them. Written (WRITE_ONCE()) by utfconv_unlock() at the end of
 *	every hold of @lock, so that it is the state @lock guards as the
 *	hold left it; read by poll() without @lock.
 * @reset_req: bit 0 set by %UTFCONV_IOC_RESET without @lock, cleared by
 *	the next utfconv_lock(), which resets the stream before anything
 *	else and publishes the fresh stream's readiness in @mask before it
 *	clears the bit (release; poll() reads it with acquire). While it is
 *	set the stream is, for every caller, the fresh one that reset makes.
 * @reset_done: set under @lock by the utfconv_lock() that carried out a
 *	reset, so that its utfconv_unlock() wakes the waiters whatever the
 *	hold did: a poller that queued itself after the reset's own wake-up
 *	must learn the stream's readiness after it.
 * @state: the codec's stream state: configuration, counters, pending
 *	input, the end of the input and the error that stopped the stream
 *	are kept there and only there
 * @fifo: converted bytes waiting to be read; its buffer is @fifo_buf
 * @fifo_buf: backing store of @fifo, utfconv_buffer_bytes bytes, allocated
 *	by the first write() or flush (NULL until then: @fifo is empty)
 * @taken: bumped whenever output leaves @fifo (read or reset), so that a
 *	reader can tell that the bytes it copied out of @fifo_buf are still
 *	the next ones and a writer waiting for room can tell that room may
 *	have been made. 64 bits on every architecture: a reader that slept
 *	in its copy while exactly 2^32 reads or resets happened must not
 *	mistake the new bytes for the ones it peeked.
 * @resets: bumped by every %UTFCONV_IOC_RESET, so that a flush that slept
 *	can tell that the stream it was ending is gone (64 bits for the
 *	same reason)
 * @full_avail: free output bytes when the last write or flush could not
 *	place its next character; 0 after any progress. poll() reports
 *	EPOLLOUT only once more room than this is free.
 * @user: the opener's count of open files (not under @lock: set at open)
 *
 * Lifetime: allocated by utfconv_open(), freed by utfconv_release() when
 * the last reference to the file is gone, so no operation can run
 * concurrently with either.
 *
 * Locking: every operation takes @lock for one bounded step at a time and
 * never holds it across a user copy, so that no task waits for another
 * task's page fault, userfaultfd stall or long conversion; poll() takes
 * no lock at all: it reads @mask. write() copies its input into a bounce
 * buffer of its own, then converts it under @lock straight into the free
 * space of @fifo_buf. read() copies straight out of @fifo_buf with no
 * lock held: writers only fill free space, so the bytes it peeked stay
 * put until output is taken, and it takes them (under @lock) only if
 * @taken is still what it saw, else it copies again. Threads writing one
 * stream at the same time interleave in steps of up to
 * %UTFCONV_IN_BYTES bytes.
 */
struct utfconv_file {
	spinlock_t lock;	/* guards all fields below */
	wait_queue_head_t wait;
	__poll_t mask;
	unsigned long reset_req;
	bool reset_done;
	struct utfconv_state state;
	struct kfifo fifo;
	void *fifo_buf;
	u64 taken;
	u64 resets;
	unsigned int full_avail;
	struct utfconv_user *user;
};

/**
 * utfconv_wake() - wake the waiters a step made ready
 * @uf: the stream
 * @mask: the readiness utfconv_unlock() published, as the key
 *
 * The key is the whole state, as poll() would report it: io_uring's
 * POLL_ADD completes with the key of the wake-up that ended it, so a
 * write that makes output ready must not claim EPOLLERR or EPOLLHUP.
 * Blocked read(), write() and flush wake whatever the key and look again.
 * Called after utfconv_unlock(), so that wait-queue callbacks (epoll)
 * never run under @uf->lock.
 *
 * Context: Any context.
 */
static void utfconv_wake(struct utfconv_file *uf, __poll_t mask)
{
	wake_up_interruptible_poll(&uf->wait, mask);
}

/**
 * utfconv_avail_locked() - free bytes of the output buffer
 * @uf: the stream
 *
 * Context: Holds @uf->lock.
 * Return: the free bytes, all of the buffer before it is allocated.
 */
static unsigned int utfconv_avail_locked(struct utfconv_file *uf)
{
	lockdep_assert_held(&uf->lock);
	return uf->fifo_buf ? kfifo_avail(&uf->fifo) : utfconv_buffer_bytes;
}

/**
 * utfconv_ended_locked() - whether the stream's input has ended
 * @uf: the stream
 *
 * Context: Holds @uf->lock.
 * Return: true after a flush: it succeeded, or found the input ending
 * inside a character (strict, wtf8: the stream stopped with -EINVAL).
 */
static bool utfconv_ended_locked(struct utfconv_file *uf)
{
	lockdep_assert_held(&uf->lock);
	return utfconv_ended(&uf->state) ||
	       utfconv_error(&uf->state) == -EINVAL;
}

/**
 * utfconv_readable_locked() - whether read() would not wait
 * @uf: the stream
 *
 * Context: Holds @uf->lock.
 * Return: true with output ready, at the end of the stream, or when an
 * error stopped it.
 */
static bool utfconv_readable_locked(struct utfconv_file *uf)
{
	lockdep_assert_held(&uf->lock);
	return !kfifo_is_empty(&uf->fifo) || utfconv_error(&uf->state) ||
	       utfconv_ended_locked(uf);
}

/**
 * utfconv_stopped_locked() - why the stream takes no more input
 * @uf: the stream
 *
 * Context: Holds @uf->lock.
 * Return: the error that stopped the stream, -EPIPE after a successful
 * flush, or 0 while it takes input.
 */
static int utfconv_stopped_locked(struct utfconv_file *uf)
{
	lockdep_assert_held(&uf->lock);
	if (utfconv_error(&uf->state))
		return utfconv_error(&uf->state);
	return utfconv_ended(&uf->state) ? -EPIPE : 0;
}

/**
 * utfconv_mask_locked() - the stream's readiness
 * @uf: the stream
 *
 * Context: Holds @uf->lock.
 * Return: EPOLLIN | EPOLLRDNORM when read() would not block (output
 * ready, end of file, or a strict error); EPOLLOUT | EPOLLWRNORM when
 * write() can accept input (room in the output buffer, input not ended,
 * no error); EPOLLERR while a strict error holds; EPOLLHUP once the input
 * ended without one (a flush), so that a writer waiting in poll() wakes
 * and gets -EPIPE from write() as from a pipe without reader.
 */
static __poll_t utfconv_mask_locked(struct utfconv_file *uf)
{
	unsigned int avail = utfconv_avail_locked(uf);
	__poll_t mask = 0;

	if (utfconv_readable_locked(uf))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (utfconv_error(&uf->state))
		mask |= EPOLLERR;
	else if (utfconv_ended_locked(uf))
		mask |= EPOLLHUP;	/* write() fails at once (EPIPE) */
	else if (avail >= UTFCONV_MIN_ROOM && avail > uf->full_avail)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

/* Readiness of a fresh stream: empty, open, all of the buffer free. */
#define UTFCONV_FRESH_MASK	(EPOLLOUT | EPOLLWRNORM)

/**
 * utfconv_lock() - take the stream's lock, applying a requested reset
 * @uf: the stream
 *
 * A %UTFCONV_IOC_RESET takes no lock (so that it never waits for a step
 * of another call): it sets @uf->reset_req, and the next holder of the
 * lock does the reset before it looks at the stream. Every counter a
 * write, read or flush compares (@uf->taken, @uf->resets) moves here, so
 * they see the reset as if it had been done at once.
 *
 * Context: Process context; takes @uf->lock.
 */
static void utfconv_lock(struct utfconv_file *uf)
	__acquires(&uf->lock)
{
	spin_lock(&uf->lock);
	if (test_bit(0, &uf->reset_req)) {
		utfconv_reset(&uf->state);
		kfifo_reset(&uf->fifo);
		uf->full_avail = 0;
		uf->resets++;
		uf->taken++;
		uf->reset_done = true;
		/* poll() sees the bit or this mask, never the old stream's */
		WRITE_ONCE(uf->mask, UTFCONV_FRESH_MASK);
		clear_bit_unlock(0, &uf->reset_req);
	}
}

/**
 * utfconv_unlock() - publish the stream's readiness and drop its lock
 * @uf: the stream
 *
 * After a hold that carried out a requested reset it wakes the waiters
 * itself: the caller may be one that wakes no one (a status query, say),
 * and a poller queued after RESET's own wake-up would sleep on.
 *
 * Context: Holds @uf->lock; drops it.
 * Return: the readiness published in @uf->mask, the key for
 * utfconv_wake().
 */
static __poll_t utfconv_unlock(struct utfconv_file *uf)
	__releases(&uf->lock)
{
	__poll_t mask = utfconv_mask_locked(uf);
	bool reset = uf->reset_done;

	uf->reset_done = false;
	WRITE_ONCE(uf->mask, mask);
	spin_unlock(&uf->lock);
	if (reset)
		utfconv_wake(uf, mask);
	return mask;
}

/**
 * utfconv_fifo_alloc() - give the stream its output buffer
 * @uf: the stream
 *
 * Streams that are only opened, configured or used for CONVERT never
 * hold the buffer: it is allocated by the first write() or flush.
 *
 * Context: Process context; may sleep; takes @uf->lock.
 * Return: 0 once the buffer exists, -ENOMEM.
 */
static int utfconv_fifo_alloc(struct utfconv_file *uf)
{
	void *buf;

	if (READ_ONCE(uf->fifo_buf))
		return 0;
	buf = kvmalloc(utfconv_buffer_bytes, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	utfconv_lock(uf);
	if (!uf->fifo_buf) {
		/* utfconv_buffer_bytes_set() checked: a power of two. */
		if (!kfifo_init(&uf->fifo, buf, utfconv_buffer_bytes)) {
			WRITE_ONCE(uf->fifo_buf, buf);
			buf = NULL;
		}
	}
	utfconv_unlock(uf);
	/* Another thread of the file was first, or kfifo_init() failed. */
	kvfree(buf);
	return READ_ONCE(uf->fifo_buf) ? 0 : -ENOMEM;
}

/**
 * utfconv_readable() - wait condition of read()
 * @uf: the stream
 *
 * Context: Process context; takes @uf->lock.
 * Return: as utfconv_readable_locked().
 */
static bool utfconv_readable(struct utfconv_file *uf)
{
	bool ret;

	utfconv_lock(uf);
	ret = utfconv_readable_locked(uf);
	utfconv_unlock(uf);
	return ret;
}

/**
 * utfconv_room_changed() - wait condition of a write or flush without room
 * @uf: the stream
 * @taken: @uf->taken when the step found no room
 *
 * Context: Process context; takes @uf->lock.
 * Return: true once output was read or discarded since then (there may be
 * room now), or the stream stopped or ended meanwhile.
 */
static bool utfconv_room_changed(struct utfconv_file *uf, u64 taken)
{
	bool ret;

	utfconv_lock(uf);
	ret = uf->taken != taken || utfconv_stopped_locked(uf);
	utfconv_unlock(uf);
	return ret;
}

/**
 * utfconv_wait_room() - wait until output room may have been made
 * @uf: the stream
 * @nowait: the call must not sleep (O_NONBLOCK, %IOCB_NOWAIT)
 * @taken: @uf->taken when the last step found no room
 *
 * Context: Process context; sleeps unless @nowait.
 * Return: 0 when it is worth trying again, -EAGAIN with @nowait,
 * -ERESTARTSYS when a signal came first.
 */
static int utfconv_wait_room(struct utfconv_file *uf, bool nowait, u64 taken)
{
	if (nowait)
		return -EAGAIN;
	return wait_event_interruptible(uf->wait,
					utfconv_room_changed(uf, taken));
}

/**
 * utfconv_fifo_in_span_locked() - where the next output byte goes
 * @uf: the stream, with its output buffer allocated
 * @dst: out: the first free byte of @uf->fifo_buf
 *
 * The free space of a byte kfifo is at most two contiguous spans: from
 * its in index to the end of the buffer, and from the start of the buffer
 * up to its out index. The kfifo API copies into both (kfifo_in()) but
 * does not point into them, so this reads the indices the way the
 * kfifo's own helpers do; kfifo_dma_in_finish() then commits the bytes.
 *
 * Context: Holds @uf->lock.
 * Return: the free bytes from *@dst on before the end of the buffer.
 */
static unsigned int utfconv_fifo_in_span_locked(struct utfconv_file *uf,
						u8 **dst)
{
	const struct __kfifo *k = &uf->fifo.kfifo;
	unsigned int off = k->in & k->mask;

	lockdep_assert_held(&uf->lock);
	*dst = (u8 *)k->data + off;
	return min(kfifo_avail(&uf->fifo), k->mask + 1 - off);
}

/**
 * utfconv_fifo_out_span_locked() - where the next output byte to read is
 * @uf: the stream, with its output buffer allocated
 * @src: out: the first byte of output waiting in @uf->fifo_buf
 *
 * As utfconv_fifo_in_span_locked() for the bytes waiting (6.10 added
 * kfifo_out_linear_ptr() for this; 6.1 lacks it).
 *
 * Context: Holds @uf->lock.
 * Return: the bytes waiting from *@src on before the end of the buffer.
 */
static unsigned int utfconv_fifo_out_span_locked(struct utfconv_file *uf,
						 const u8 **src)
{
	const struct __kfifo *k = &uf->fifo.kfifo;
	unsigned int off = k->out & k->mask;

	lockdep_assert_held(&uf->lock);
	*src = (const u8 *)k->data + off;
	return min(kfifo_len(&uf->fifo), k->mask + 1 - off);
}

/**
 * utfconv_fill_span_locked() - convert input into one span of free space
 * @uf: the stream, with its output buffer allocated
 * @src: input bytes (kernel memory)
 * @src_bytes: their count
 * @src_used: out: input bytes the codec consumed
 * @dst_used: out: output bytes added to @uf->fifo
 * @cflags: utfconv_convert() flags: 0 or %UTFCONV_END
 *
 * The codec writes whole characters only, so it converts straight into
 * the free space up to the end of the buffer; when that span is shorter
 * than %UTFCONV_WRAP_BYTES and the free space goes on at the start, the
 * step writes into a small buffer on the stack and kfifo_in() splits it,
 * so that a character may straddle the end of the buffer.
 *
 * Context: Holds @uf->lock.
 * Return: the result of utfconv_convert().
 */
static int utfconv_fill_span_locked(struct utfconv_file *uf, const u8 *src,
				    size_t src_bytes, size_t *src_used,
				    size_t *dst_used, unsigned int cflags)
{
	unsigned int avail = kfifo_avail(&uf->fifo);
	u8 wrap[UTFCONV_WRAP_BYTES];
	unsigned int span;
	u8 *dst;
	int ret;

	span = utfconv_fifo_in_span_locked(uf, &dst);
	if (span < avail && span < sizeof(wrap)) {
		ret = utfconv_convert(&uf->state, src, src_bytes, src_used,
				      wrap, min_t(size_t, avail, sizeof(wrap)),
				      dst_used, cflags);
		/* Cannot be short: the codec wrote at most kfifo_avail(). */
		kfifo_in(&uf->fifo, wrap, *dst_used);
		return ret;
	}
	ret = utfconv_convert(&uf->state, src, src_bytes, src_used, dst, span,
			      dst_used, cflags);
	kfifo_dma_in_finish(&uf->fifo, *dst_used);
	return ret;
}

/**
 * utfconv_fill_locked() - convert input into the output buffer
 * @uf: the stream, with its output buffer allocated
 * @src: input bytes (kernel memory), or NULL with @src_bytes 0
 * @src_bytes: their count
 * @src_used: out: input bytes the codec consumed (pending ones included)
 * @cflags: utfconv_convert() flags: 0 or %UTFCONV_END
 * @wake: out: set when waiters must be woken (output, end or error)
 *
 * Converts straight into the free space of @uf->fifo, never more than
 * fits, in at most a few spans (see utfconv_fill_span_locked()).
 *
 * Context: Holds @uf->lock.
 * Return: the result of utfconv_convert(), except that -E2BIG with no
 * progress at all becomes -ENOSPC:
 * * 0 - all input consumed (and the stream ended with %UTFCONV_END)
 * * -E2BIG - some progress; the next character did not fit
 * * -ENOSPC - nothing fits until output is read
 * * -EILSEQ - strict: ill-formed input after *@src_used bytes
 * * -EINVAL - strict: incomplete input at the end (%UTFCONV_END)
 */
static int utfconv_fill_locked(struct utfconv_file *uf, const u8 *src,
			       size_t src_bytes, size_t *src_used,
			       unsigned int cflags, bool *wake)
{
	size_t out = 0;
	size_t dst_used;
	size_t used;
	int ret;

	lockdep_assert_held(&uf->lock);

	*src_used = 0;
	do {
		ret = utfconv_fill_span_locked(uf, src ? src + *src_used : NULL,
					       src_bytes - *src_used, &used,
					       &dst_used, cflags);
		*src_used += used;
		out += dst_used;
		/* -E2BIG with progress: the rest may fit past the wrap. */
	} while (ret == -E2BIG && (used || dst_used));

	if (out)
		*wake = true;
	if (*src_used || out) {
		uf->full_avail = 0;
	} else if (ret == -E2BIG) {
		uf->full_avail = kfifo_avail(&uf->fifo);
		ret = -ENOSPC;
	}
	if (ret && ret != -E2BIG && ret != -ENOSPC)
		*wake = true;
	else if (!ret && (cflags & UTFCONV_END))
		*wake = true;
	return ret;
}

/**
 * utfconv_nowait() - whether a read or write must not sleep
 * @iocb: the call
 *
 * Context: Any context.
 * Return: true for a non-blocking file (O_NONBLOCK) and for a call that
 * asks not to wait (%IOCB_NOWAIT: preadv2() and pwritev2() with
 * RWF_NOWAIT, io_uring's first, inline attempt).
 */
static bool utfconv_nowait(const struct kiocb *iocb)
{
	return (iocb->ki_filp->f_flags & O_NONBLOCK) ||
	       (iocb->ki_flags & IOCB_NOWAIT);
}

/**
 * utfconv_open() - open a new conversion stream
 * @inode: inode of /dev/utfconv
 * @file: the new file
 *
 * Allocates the stream's state, charged to the caller's memory cgroup and
 * counted against the caller's max_user_streams; the output buffer comes
 * with the first write() or flush. The stream starts as UTF-8 ->
 * UTF-16LE, strict, no flags. The file is a stream: lseek() and
 * positional reads and writes fail with -ESPIPE. Reads and writes honour
 * %IOCB_NOWAIT (FMODE_NOWAIT), so that RWF_NOWAIT works and io_uring
 * runs them inline, waiting in poll rather than in a worker thread.
 *
 * Context: Process context; may sleep.
 * Return:
 * * 0 - the stream is ready
 * * -EMFILE - the caller's user has max_user_streams files of
 *   /dev/utfconv open already
 * * -ENOMEM - out of memory
 */
static int utfconv_open(struct inode *inode, struct file *file)
{
	struct utfconv_user *user;
	struct utfconv_file *uf;
	int ret;

	user = utfconv_user_get();
	if (IS_ERR(user))
		return PTR_ERR(user);
	uf = kzalloc(sizeof(*uf), GFP_KERNEL_ACCOUNT);
	if (!uf) {
		utfconv_user_put(user);
		return -ENOMEM;
	}
	uf->user = user;

	ret = utfconv_init(&uf->state, UTFCONV_DIR_UTF8_TO_UTF16LE,
			   UTFCONV_POLICY_STRICT, 0);
	if (ret) {
		kfree(uf);
		utfconv_user_put(user);
		return ret;
	}

	spin_lock_init(&uf->lock);
	init_waitqueue_head(&uf->wait);
	uf->mask = UTFCONV_FRESH_MASK;
	file->private_data = uf;

	ret = stream_open(inode, file);
	file->f_mode |= FMODE_NOWAIT;
	return ret;
}

/**
 * utfconv_release() - free a conversion stream
 * @inode: inode of /dev/utfconv
 * @file: the file, with no operation in progress on it
 *
 * Output not read yet is discarded.
 *
 * Context: Process context; may sleep.
 * Return: 0.
 */
static int utfconv_release(struct inode *inode, struct file *file)
{
	struct utfconv_file *uf = file->private_data;

	utfconv_user_put(uf->user);
	kvfree(uf->fifo_buf);
	kfree(uf);
	return 0;
}

/**
 * utfconv_read_peek() - look at the output without taking it
 * @uf: the stream
 * @bytes: most bytes wanted
 * @src: out: where the bytes are, in @uf->fifo_buf
 * @taken: out: @uf->taken at the time of the peek
 *
 * Context: Process context; takes @uf->lock.
 * Return:
 * * >0 - bytes waiting at *@src (one contiguous span, at most @bytes)
 * * 0 - end of file
 * * -EILSEQ, -EINVAL - no output left and the stream stopped
 * * -EAGAIN - no output ready
 */
static ssize_t utfconv_read_peek(struct utfconv_file *uf, size_t bytes,
				 const u8 **src, u64 *taken)
{
	ssize_t ret = 0;

	utfconv_lock(uf);
	*taken = uf->taken;
	if (uf->fifo_buf)
		ret = min_t(size_t, utfconv_fifo_out_span_locked(uf, src),
			    bytes);
	if (!ret && utfconv_error(&uf->state))
		ret = utfconv_error(&uf->state);
	else if (!ret && !utfconv_ended_locked(uf))
		ret = -EAGAIN;
	utfconv_unlock(uf);
	return ret;
}

/**
 * utfconv_read_commit() - take output that was copied to the reader
 * @uf: the stream
 * @bytes: how many of the peeked bytes reached the reader
 * @taken: @uf->taken that utfconv_read_peek() returned
 *
 * Context: Process context; takes @uf->lock.
 * Return: true if the bytes were taken; false if another reader took
 * output or a reset discarded it since the peek, so that the bytes
 * copied may have been overwritten meanwhile (the caller peeks again).
 */
static bool utfconv_read_commit(struct utfconv_file *uf, size_t bytes,
				u64 taken)
{
	__poll_t mask;
	bool ret;

	utfconv_lock(uf);
	ret = uf->taken == taken;
	if (ret) {
		/* The same bytes as peeked: only writers add to the fifo. */
		kfifo_dma_out_finish(&uf->fifo, bytes);
		uf->taken++;
	}
	mask = utfconv_unlock(uf);
	if (ret)
		utfconv_wake(uf, mask);
	return ret;
}

/**
 * utfconv_read_iter() - read converted bytes
 * @iocb: the call: its file is the stream
 * @to: user buffers (read(), readv(), io_uring); any sizes, 1-byte reads
 *	give the same bytes
 *
 * Returns the bytes waiting in the output buffer, up to the size of @to
 * (so at most buffer_bytes per call), as one contiguous slice of the
 * output, across the elements of a vector: as a pipe, once it copied
 * something it returns rather than wait for more, and it stops where
 * another reader or a reset took output since. When none are waiting it
 * sleeps until some are, unless the stream has ended (%UTFCONV_IOC_FLUSH:
 * end of file), a strict error holds (the error is returned so that
 * readers of a failed stream do not wait for output that never comes), or
 * the call must not wait (O_NONBLOCK, %IOCB_NOWAIT: -EAGAIN). Output
 * produced before a strict error is returned first. The bytes are copied
 * straight out of the output buffer without any lock held and taken from
 * the stream only after the copy, so a stalled or faulting buffer delays
 * no other task.
 *
 * Context: Process context; may sleep unless %IOCB_NOWAIT.
 * Return:
 * * >0 - bytes copied to @to (which is advanced by as many)
 * * 0 - @to is empty, or end of file: the stream was flushed and all its
 *   output has been read
 * * -EILSEQ - no output left and the stream stopped at ill-formed input
 * * -EINVAL - no output left and the stream ended inside a character
 * * -EAGAIN - no output ready and the file is non-blocking or the call
 *   is %IOCB_NOWAIT
 * * -ERESTARTSYS - interrupted by a signal before any byte was copied
 * * -EFAULT - the first buffer of @to is not writable; no byte was
 *   consumed
 */
static ssize_t utfconv_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct utfconv_file *uf = iocb->ki_filp->private_data;
	bool nowait = utfconv_nowait(iocb);
	size_t done = 0;
	const u8 *src;
	ssize_t ret = 0;
	size_t copied;
	u64 taken;
	u64 next = 0;
	size_t most = SIZE_MAX;
	/* Bounded work per call: at most one buffer full. */
	size_t count = min_t(size_t, iov_iter_count(to), utfconv_buffer_bytes);

	while (done < count) {
		ret = utfconv_read_peek(uf, min(count - done, most), &src,
					&taken);
		if (ret == -EAGAIN && !done && !nowait) {
			ret = wait_event_interruptible(uf->wait,
						       utfconv_readable(uf));
			if (!ret)
				continue;
		}
		if (ret <= 0)
			break;
		if (done && taken != next) {
			/*
			 * Another reader or a reset took output since this
			 * call's last commit: what follows is not the next
			 * slice after the bytes already returned.
			 */
			break;
		}

		copied = copy_to_iter(src, ret, to);
		if (!copied) {
			ret = -EFAULT;
			break;
		}
		if (utfconv_read_commit(uf, copied, taken)) {
			done += copied;
			next = taken + 1;
			if (copied < ret)
				break;
			/* The output may go on at the start of the buffer. */
			continue;
		}
		/* The bytes copied were not taken: @to must not count them. */
		iov_iter_revert(to, copied);
		if (done)
			break;
		/*
		 * Another reader or a reset came between: look again, at
		 * fewer bytes, so that a reader of small pieces in a loop
		 * cannot make every copy of a large read() fail.
		 */
		most = max_t(size_t, min_t(size_t, most, UTFCONV_IN_BYTES) / 2,
			     UTFCONV_MIN_ROOM);
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		cond_resched();
	}
	return done ? done : ret;
}

/**
 * utfconv_write_step() - convert one bounced piece of input
 * @uf: the stream
 * @src: input bytes (kernel memory)
 * @src_bytes: their count
 * @src_used: out: input bytes accepted
 * @taken: out: @uf->taken when nothing fitted (-ENOSPC)
 * @resets: in/out: @uf->resets when the write() began; updated by a
 *	step that finds a reset before the write() took any input
 * @started: whether the write() took input already
 *
 * Converts straight into the output buffer.
 *
 * Context: Process context; takes @uf->lock for one bounded step.
 * Return: as utfconv_fill_locked() (-E2BIG becomes 0: there was
 * progress), or -EPIPE after a flush, the stream's error if it stopped
 * earlier, -E2BIG if the empty output buffer cannot hold one character,
 * -ECANCELED if a reset discarded the stream that took the write()'s
 * earlier input (the write() ends with the count it took).
 */
static int utfconv_write_step(struct utfconv_file *uf, const u8 *src,
			      size_t src_bytes, size_t *src_used, u64 *taken,
			      u64 *resets, bool started)
{
	bool wake = false;
	__poll_t mask;
	int ret;

	*src_used = 0;
	utfconv_lock(uf);
	if (uf->resets != *resets) {
		/*
		 * A reset discarded the stream that took the first steps of
		 * this write(): the rest must not start the new stream.
		 * Before any step the write belongs to the new stream.
		 */
		*resets = uf->resets;
		if (started) {
			utfconv_unlock(uf);
			return -ECANCELED;
		}
	}
	ret = utfconv_stopped_locked(uf);
	if (!ret)
		ret = utfconv_fill_locked(uf, src, src_bytes, src_used, 0,
					  &wake);
	if (ret == -ENOSPC && kfifo_is_empty(&uf->fifo))
		ret = -E2BIG;
	else if (ret == -E2BIG)
		ret = 0;
	*taken = uf->taken;
	mask = utfconv_unlock(uf);
	if (wake)
		utfconv_wake(uf, mask);
	return ret;
}

/**
 * utfconv_write_bounced() - the work of write_iter() through a bounce buffer
 * @iocb: the call: its file is the stream
 * @from: user buffers holding the input, at least 1 byte
 * @bounce: bounce buffer for the input, @in_bytes long
 * @in_bytes: input bytes per step, at most %UTFCONV_IN_BYTES
 *
 * Each step copies up to @in_bytes of @from, across the elements of a
 * vector, so that a character split between two elements is converted
 * as one. On return @from is advanced by exactly the bytes accepted.
 *
 * Context: Process context; may sleep unless %IOCB_NOWAIT.
 * Return: as utfconv_write_iter().
 */
static ssize_t utfconv_write_bounced(struct kiocb *iocb, struct iov_iter *from,
				     u8 *bounce, size_t in_bytes)
{
	struct utfconv_file *uf = iocb->ki_filp->private_data;
	size_t count = iov_iter_count(from);
	bool nowait = utfconv_nowait(iocb);
	u64 taken;
	u64 resets;
	size_t done = 0;
	size_t have = 0;
	size_t pos = 0;
	size_t want;
	size_t used;
	bool fault = false;
	int ret = 0;

	utfconv_lock(uf);
	resets = uf->resets;
	utfconv_unlock(uf);
	while (done < count) {
		if (!have) {
			want = min(count - done, in_bytes);
			have = copy_from_iter(bounce, want, from);
			if (!have) {
				ret = -EFAULT;
				break;
			}
			fault = have < want;
			pos = 0;
		}
		ret = utfconv_write_step(uf, bounce + pos, have, &used,
					 &taken, &resets, done > 0);
		if (ret == -ECANCELED)
			break;
		done += used;
		pos += used;
		have -= used;
		if (ret == -ENOSPC && !done) {
			ret = utfconv_wait_room(uf, nowait, taken);
			if (ret)
				break;
			continue;
		}
		if (ret)
			break;
		if (!have && fault) {
			/* Everything readable was taken; the rest faults. */
			ret = -EFAULT;
			break;
		}
		/*
		 * Long input: let signals and other tasks in between steps.
		 * A step may take no input (its output was a pending tail's
		 * U+FFFD); without progress the call restarts, never returns 0.
		 */
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		cond_resched();
	}
	/* Copied but not accepted: give it back to @from. */
	iov_iter_revert(from, have);
	return done ? done : ret;
}

/**
 * utfconv_write_iter() - convert input bytes
 * @iocb: the call: its file is the stream
 * @from: user buffers holding the input (write(), writev(), io_uring);
 *	any sizes, split anywhere, also between the elements of a vector
 *
 * Converts input in steps of at most %UTFCONV_IN_BYTES bytes into the
 * stream's output buffer and accepts exactly the input whose output fits
 * there (a tail of an incomplete character is accepted and held pending).
 * Each step copies the input into a bounce buffer with no lock held and
 * then converts it under the stream's lock straight into the free space
 * of the output buffer (no copy of the output); between steps a pending
 * signal ends the write with the count accepted so far. It sleeps only
 * when no input at all can be accepted, until a reader makes room; a
 * non-blocking file or a %IOCB_NOWAIT call gets -EAGAIN instead.
 *
 * Under the strict and wtf8 policies, input up to an ill-formed sequence
 * is accepted and converted; the sequence is not. The write returns the
 * count of that valid prefix if there is one, and every later write
 * fails with -EILSEQ until %UTFCONV_IOC_RESET.
 *
 * A bad buffer consumes nothing past the last byte that could be read, so
 * retrying from the returned count gives the same stream.
 *
 * Context: Process context; may sleep unless %IOCB_NOWAIT.
 * Return:
 * * >0 - input bytes accepted, possibly fewer than @from holds (output
 *   buffer full, signal, fault, or ill-formed input after them)
 * * 0 - @from is empty
 * * -EILSEQ - the stream stopped at ill-formed input (now or before)
 * * -EINVAL - a flush found an incomplete character; the stream stopped
 * * -EPIPE - the input was ended by %UTFCONV_IOC_FLUSH
 * * -EAGAIN - no input can be accepted and the file is non-blocking or
 *   the call is %IOCB_NOWAIT
 * * -ERESTARTSYS - interrupted by a signal before any byte was accepted
 * * -EFAULT - the first buffer of @from is not readable; no byte was
 *   accepted
 * * -ENOMEM - out of memory for the output or the bounce buffer
 * * -E2BIG - the output buffer cannot hold one character (cannot happen
 *   with the sizes this module allows)
 */
static ssize_t utfconv_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	size_t count = iov_iter_count(from);
	size_t in_bytes = min_t(size_t, count, UTFCONV_IN_BYTES);
	u8 stack_buf[UTFCONV_STACK_BYTES];
	u8 *bounce = stack_buf;
	ssize_t ret;

	if (!count)
		return 0;
	if (utfconv_fifo_alloc(iocb->ki_filp->private_data))
		return -ENOMEM;
	/* As large as the request needs: small writes allocate nothing. */
	if (in_bytes > sizeof(stack_buf))
		bounce = kmalloc(in_bytes, GFP_KERNEL_ACCOUNT);
	if (!bounce)
		return -ENOMEM;
	ret = utfconv_write_bounced(iocb, from, bounce, in_bytes);
	if (bounce != stack_buf)
		kfree(bounce);
	return ret;
}

/**
 * utfconv_poll() - readiness of a stream
 * @file: the stream
 * @wait: poll table
 *
 * Takes no lock, so that it never waits for a step of another call on the
 * stream: it reports the readiness the last hold of the stream's lock
 * published. Every change of it is published before the wake-up that
 * announces it, so a waiter woken looks again and sees it.
 *
 * Context: Process context.
 * Return: as utfconv_mask_locked().
 */
static __poll_t utfconv_poll(struct file *file, poll_table *wait)
{
	struct utfconv_file *uf = file->private_data;

	poll_wait(file, &uf->wait, wait);
	/*
	 * @mask may still be the state before a requested reset while the
	 * bit is set; once it is clear, @mask is the fresh stream's or newer.
	 */
	if (test_bit_acquire(0, &uf->reset_req))
		return UTFCONV_FRESH_MASK;
	return READ_ONCE(uf->mask);
}

/*
 * Sizes of the structures as first published (ABI 2). A command may carry
 * a larger size, from a later header: see utfconv_ioctl().
 */
#define UTFCONV_INFO_SIZE_VER0		64
#define UTFCONV_CONFIG_SIZE_VER0	32
#define UTFCONV_STATUS_SIZE_VER0	80
#define UTFCONV_CONVERT_SIZE_VER0	96

/**
 * struct utfconv_mode - a configuration as the codec takes it
 * @direction: UTFCONV_DIR_*
 * @policy: UTFCONV_POLICY_*
 * @flags: the codec's UTFCONV_FLAG_* bits (%UTFCONV_FLAGS_ALL)
 */
struct utfconv_mode {
	u32 direction;
	u32 policy;
	u32 flags;
};

/**
 * struct utfconv_pair - the codec direction of a source and target
 * @source: UTFCONV_ENC_* of the input
 * @target: UTFCONV_ENC_* of the output
 * @detect: %UTFCONV_FLAG_DETECT_BOM or 0
 * @direction: UTFCONV_DIR_* of the codec
 */
struct utfconv_pair {
	u8 source;
	u8 target;
	u8 detect;
	u8 direction;
};

static const struct utfconv_pair utfconv_pairs[] = {
	{ UTFCONV_ENC_UTF8, UTFCONV_ENC_UTF16LE, 0,
	  UTFCONV_DIR_UTF8_TO_UTF16LE },
	{ UTFCONV_ENC_UTF8, UTFCONV_ENC_UTF16BE, 0,
	  UTFCONV_DIR_UTF8_TO_UTF16BE },
	{ UTFCONV_ENC_UTF16LE, UTFCONV_ENC_UTF8, 0,
	  UTFCONV_DIR_UTF16LE_TO_UTF8 },
	{ UTFCONV_ENC_UTF16BE, UTFCONV_ENC_UTF8, 0,
	  UTFCONV_DIR_UTF16BE_TO_UTF8 },
	/* RFC 2781 4.3: without a byte order mark, UTF-16 is big-endian. */
	{ UTFCONV_ENC_UTF16BE, UTFCONV_ENC_UTF8, UTFCONV_FLAG_DETECT_BOM,
	  UTFCONV_DIR_UTF16_TO_UTF8 },
};

/**
 * utfconv_check_config() - validate a configuration from userspace
 * @source: UTFCONV_ENC_* of the input
 * @target: UTFCONV_ENC_* of the output
 * @policy: UTFCONV_POLICY_*
 * @flags: UTFCONV_FLAG_* bits
 * @padding: reserved words of the structure
 * @padding_bytes: their size in bytes
 * @mode: out: the configuration for the codec
 *
 * Common to %UTFCONV_IOC_SET_CONFIG and %UTFCONV_IOC_CONVERT: maps
 * (source, target, %UTFCONV_FLAG_DETECT_BOM) to a codec direction.
 *
 * Context: Any context.
 * Return:
 * * 0 - valid
 * * -EINVAL - an unknown or unsupported source, target or pair of them,
 *   an unknown policy or flag bit, or nonzero padding
 */
static int utfconv_check_config(u32 source, u32 target, u32 policy,
				u32 flags, const void *padding,
				size_t padding_bytes, struct utfconv_mode *mode)
{
	u32 detect = flags & UTFCONV_FLAG_DETECT_BOM;
	size_t i;

	if (policy > UTFCONV_POLICY_MAX)
		return -EINVAL;
	if (flags & ~(UTFCONV_FLAGS_ALL | UTFCONV_FLAG_DETECT_BOM))
		return -EINVAL;
	if (memchr_inv(padding, 0, padding_bytes))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(utfconv_pairs); i++) {
		if (utfconv_pairs[i].source == source &&
		    utfconv_pairs[i].target == target &&
		    utfconv_pairs[i].detect == detect) {
			mode->direction = utfconv_pairs[i].direction;
			mode->policy = policy;
			mode->flags = flags & UTFCONV_FLAGS_ALL;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * utfconv_copy_out() - copy a structure to a user buffer of any size
 * @argp: user address
 * @usize: the size userspace asked for, from the command; at least the
 *	structure's first published size
 * @kbuf: the structure
 * @ksize: its size in this module
 *
 * A smaller @usize (an older header) gets the fields it knows; a larger
 * one (a newer header) gets zeros for the fields this module lacks.
 *
 * Context: Process context; may sleep (user copy).
 * Return: 0, or -EFAULT if @argp is not writable.
 */
static int utfconv_copy_out(void __user *argp, size_t usize,
			    const void *kbuf, size_t ksize)
{
	if (copy_to_user(argp, kbuf, min(usize, ksize)))
		return -EFAULT;
	if (usize > ksize && clear_user(argp + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/**
 * utfconv_ioctl_get_info() - %UTFCONV_IOC_GET_INFO
 * @argp: user address of a &struct utfconv_info
 * @usize: its size, from the command
 *
 * Context: Process context.
 * Return: 0, or -EFAULT if @argp is not writable.
 */
static long utfconv_ioctl_get_info(void __user *argp, size_t usize)
{
	struct utfconv_info info;
	size_t i;

	memset(&info, 0, sizeof(info));
	for (i = 0; i < ARRAY_SIZE(utfconv_pairs); i++) {
		info.sources |= BIT(utfconv_pairs[i].source);
		info.targets |= BIT(utfconv_pairs[i].target);
	}
	info.policies = GENMASK(UTFCONV_POLICY_MAX, UTFCONV_POLICY_STRICT);
	info.flags = UTFCONV_FLAGS_ALL | UTFCONV_FLAG_DETECT_BOM;
	info.buffer_bytes = utfconv_buffer_bytes;
	info.max_pending_bytes = UTFCONV_MAX_PENDING;

	return utfconv_copy_out(argp, usize, &info, sizeof(info));
}

/**
 * utfconv_fresh_locked() - whether the stream may change its mode
 * @uf: the stream
 *
 * Context: Holds @uf->lock.
 * Return: true just after open or reset: no input taken (counted or
 * pending), no output produced or unread, not flushed, not failed.
 */
static bool utfconv_fresh_locked(struct utfconv_file *uf)
{
	const struct utfconv_state *st = &uf->state;

	lockdep_assert_held(&uf->lock);
	return !utfconv_stopped_locked(uf) && !utfconv_ended_locked(uf) &&
	       kfifo_is_empty(&uf->fifo) && !utfconv_pending_bytes(st) &&
	       !st->bytes_in && !st->bytes_out;
}

/**
 * utfconv_ioctl_set_config() - %UTFCONV_IOC_SET_CONFIG
 * @uf: the stream
 * @argp: user address of a &struct utfconv_config
 * @usize: its size, from the command
 *
 * Context: Process context; takes @uf->lock.
 * Return:
 * * 0 - configured
 * * -EFAULT - @argp is not readable
 * * -EINVAL - invalid configuration; nothing changed
 * * -E2BIG - @usize is larger than this module's structure and the
 *   extra bytes are not zero (a field this module does not know)
 * * -EBUSY - the stream is not fresh; nothing changed
 */
static long utfconv_ioctl_set_config(struct utfconv_file *uf,
				     void __user *argp, size_t usize)
{
	struct utfconv_config config;
	struct utfconv_mode mode;
	int ret;

	ret = copy_struct_from_user(&config, sizeof(config), argp, usize);
	if (ret)
		return ret;
	ret = utfconv_check_config(config.source, config.target,
				   config.policy, config.flags,
				   config.padding, sizeof(config.padding),
				   &mode);
	if (ret)
		return ret;

	utfconv_lock(uf);
	/* Only a fresh stream (just opened or reset) changes its mode. */
	if (!utfconv_fresh_locked(uf))
		ret = -EBUSY;
	else
		/* Checked above; on failure @uf->state stays as it was. */
		ret = utfconv_init(&uf->state, mode.direction, mode.policy,
				   mode.flags);
	utfconv_unlock(uf);
	return ret;
}

/**
 * utfconv_config_of() - the configuration of a codec stream state
 * @st: the state
 * @config: out: source, target, policy and flags (padding untouched)
 *
 * The configuration is read back from the codec's stream state, its only
 * copy.
 *
 * Context: Any context; the caller keeps @st from changing.
 */
static void utfconv_config_of(const struct utfconv_state *st,
			      struct utfconv_config *config)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(utfconv_pairs); i++) {
		if (utfconv_pairs[i].direction == st->direction) {
			config->source = utfconv_pairs[i].source;
			config->target = utfconv_pairs[i].target;
			config->flags = utfconv_pairs[i].detect;
		}
	}
	config->policy = st->policy;
	config->flags |= st->flags;
}

/**
 * utfconv_ioctl_get_config() - %UTFCONV_IOC_GET_CONFIG
 * @uf: the stream
 * @argp: user address of a &struct utfconv_config
 * @usize: its size, from the command
 *
 * Context: Process context; takes @uf->lock.
 * Return: 0, or -EFAULT if @argp is not writable.
 */
static long utfconv_ioctl_get_config(struct utfconv_file *uf,
				     void __user *argp, size_t usize)
{
	struct utfconv_config config;

	memset(&config, 0, sizeof(config));
	utfconv_lock(uf);
	utfconv_config_of(&uf->state, &config);
	utfconv_unlock(uf);

	return utfconv_copy_out(argp, usize, &config, sizeof(config));
}

/**
 * utfconv_ioctl_get_status() - %UTFCONV_IOC_GET_STATUS
 * @uf: the stream
 * @argp: user address of a &struct utfconv_status
 * @usize: its size, from the command
 *
 * Context: Process context; takes @uf->lock.
 * Return: 0, or -EFAULT if @argp is not writable.
 */
static long utfconv_ioctl_get_status(struct utfconv_file *uf,
				     void __user *argp, size_t usize)
{
	const struct utfconv_state *st = &uf->state;
	struct utfconv_status status;

	memset(&status, 0, sizeof(status));

	utfconv_lock(uf);
	status.bytes_in = st->bytes_in;
	status.bytes_out = st->bytes_out;
	status.code_points = st->code_points;
	status.replacements = st->replacements;
	status.error_kind = st->error_kind;
	if (status.error_kind != UTFCONV_ERR_NONE)
		status.error_offset = st->error_offset;
	if (utfconv_ended_locked(uf))
		status.state |= UTFCONV_STATE_ENDED;
	if (utfconv_error(st))
		status.state |= UTFCONV_STATE_FAILED;
	status.pending_bytes = utfconv_pending_bytes(st);
	status.ready_bytes = kfifo_len(&uf->fifo);
	utfconv_unlock(uf);

	return utfconv_copy_out(argp, usize, &status, sizeof(status));
}

/**
 * utfconv_flush_step() - try once to end the input
 * @uf: the stream
 * @resets: in/out: @uf->resets at the flush's first step (set by it)
 * @first: whether this is the flush's first step
 * @taken: out: @uf->taken when the final output did not fit (-ENOSPC)
 *
 * Context: Process context; takes @uf->lock for one bounded step.
 * Return:
 * * 0 - the input ended (now or earlier)
 * * -ECANCELED - a reset discarded the stream this flush was ending
 * * -EAGAIN - output was queued; step again
 * * -ENOSPC - the final output does not fit until output is read
 * * -E2BIG - it cannot fit even into the empty output buffer
 * * -EINVAL, -EILSEQ - the stream stopped (now or earlier)
 */
static int utfconv_flush_step(struct utfconv_file *uf, u64 *resets,
			      bool first, u64 *taken)
{
	bool wake = false;
	__poll_t mask;
	size_t src_used;
	int ret;

	utfconv_lock(uf);
	/* A reset before the first step came before the flush. */
	if (first)
		*resets = uf->resets;
	if (uf->resets != *resets) {
		/*
		 * A reset discarded the stream this flush was ending, its
		 * output included: the caller must not take the new stream
		 * for an ended one, and the new stream is left alone.
		 */
		ret = -ECANCELED;
	} else if (utfconv_error(&uf->state)) {
		ret = utfconv_error(&uf->state);
	} else if (utfconv_ended(&uf->state)) {
		ret = 0;
	} else {
		ret = utfconv_fill_locked(uf, NULL, 0, &src_used, UTFCONV_END,
					  &wake);
		if (ret == -E2BIG)
			ret = -EAGAIN;
		else if (ret == -ENOSPC && kfifo_is_empty(&uf->fifo))
			ret = -E2BIG;
	}
	*taken = uf->taken;
	mask = utfconv_unlock(uf);
	if (wake)
		utfconv_wake(uf, mask);
	return ret;
}

/**
 * utfconv_ioctl_flush() - %UTFCONV_IOC_FLUSH: end the input
 * @uf: the stream
 * @file: its file, for O_NONBLOCK
 *
 * Context: Process context; may sleep for output room.
 * Return:
 * * 0 - the input ended (now or by an earlier flush)
 * * -ECANCELED - a %UTFCONV_IOC_RESET discarded the stream after the
 *   flush's first step (between steps or while it waited for room); the
 *   new stream is neither ended nor failed
 * * -EINVAL - strict: the input ends inside a character; the stream
 *   stopped (also returned by any later flush)
 * * -EILSEQ - the stream had stopped at ill-formed input
 * * -EAGAIN - the final output does not fit and @file is non-blocking
 * * -E2BIG - the output buffer cannot hold the final output (cannot
 *   happen with the sizes this module allows)
 * * -ENOMEM - out of memory for the output buffer
 * * -ERESTARTSYS - interrupted by a signal while waiting for room
 */
static long utfconv_ioctl_flush(struct utfconv_file *uf, struct file *file)
{
	u64 taken;
	u64 resets = 0;
	bool first;
	int ret;

	if (utfconv_fifo_alloc(uf))
		return -ENOMEM;
	for (first = true;; first = false) {
		ret = utfconv_flush_step(uf, &resets, first, &taken);
		if (ret == -EAGAIN)
			continue;
		if (ret != -ENOSPC)
			break;
		ret = utfconv_wait_room(uf, file->f_flags & O_NONBLOCK, taken);
		if (ret)
			break;
	}
	return ret;
}

/**
 * utfconv_ioctl_reset() - %UTFCONV_IOC_RESET: start the stream again
 * @uf: the stream
 *
 * Requests the reset, which the next hold of the stream's lock does
 * first (utfconv_lock()), and wakes the waiters: a write or flush waiting
 * for room goes on (a write or flush that began before the reset stops
 * with what it did, -ECANCELED for a flush), readers see an empty stream.
 * From its return on, every call sees the fresh stream.
 *
 * Context: Any context; takes no lock of the stream, so that it returns
 * at once even while another call holds it for a step.
 * Return: 0.
 */
static long utfconv_ioctl_reset(struct utfconv_file *uf)
{
	/* The wake-up's queue lock orders the bit before a poller's look. */
	set_bit(0, &uf->reset_req);
	utfconv_wake(uf, UTFCONV_FRESH_MASK);
	return 0;
}

/**
 * utfconv_convert_fault() - account for output that reached dst in part
 * @st: the state after the step whose output could not all be copied
 * @before: the state before that step
 * @src: the step's input
 * @src_bytes: its size
 * @out_buf: bounce buffer, overwritten
 * @written: bytes of the step's output that reached dst
 * @cflags: the step's utfconv_convert() flags
 *
 * Redoes the step into @written bytes: the codec writes whole characters
 * only, so @st then counts exactly the input of the whole characters
 * that reached dst.
 *
 * Context: Any context.
 */
static void utfconv_convert_fault(struct utfconv_state *st,
				  const struct utfconv_state *before,
				  const u8 *src, size_t src_bytes, u8 *out_buf,
				  size_t written, unsigned int cflags)
{
	size_t src_used;
	size_t dst_used;

	*st = *before;
	utfconv_convert(st, src, src_bytes, &src_used, out_buf, written,
			&dst_used, cflags);
}

/**
 * utfconv_convert_chunk() - convert one bounced piece of a CONVERT input
 * @cv: the request
 * @st: its stream state
 * @in_buf: the piece
 * @chunk: its size in bytes
 * @cflags: utfconv_convert() flags: %UTFCONV_END for the last piece
 * @out_buf: bounce buffer for output, @out_bytes long
 * @out_bytes: its size
 * @dst_done: in/out: bytes written to dst so far
 *
 * Context: Process context; may sleep (user copies).
 * Return: as utfconv_convert_user(); -EFAULT with *@dst_done counting
 * every byte that reached dst and @st the input of its whole characters.
 */
static int utfconv_convert_chunk(const struct utfconv_convert *cv,
				 struct utfconv_state *st, const u8 *in_buf,
				 size_t chunk, unsigned int cflags,
				 u8 *out_buf, size_t out_bytes, u64 *dst_done)
{
	u8 __user *dst = u64_to_user_ptr(cv->dst);
	struct utfconv_state before;
	size_t src_used;
	size_t dst_used;
	size_t pos = 0;
	size_t left;
	size_t room;
	bool full;
	int ret;

	do {
		room = min_t(u64, cv->dst_bytes - *dst_done, out_bytes);
		full = room == cv->dst_bytes - *dst_done;
		before = *st;
		ret = utfconv_convert(st, in_buf + pos, chunk - pos, &src_used,
				      out_buf, room, &dst_used, cflags);
		left = copy_to_user(dst + *dst_done, out_buf, dst_used);
		if (left) {
			utfconv_convert_fault(st, &before, in_buf + pos,
					      chunk - pos, out_buf,
					      dst_used - left, cflags);
			*dst_done += dst_used - left;
			return -EFAULT;
		}
		pos += src_used;
		*dst_done += dst_used;
		/* Go on only when the bounce buffer, not dst, was full. */
	} while (ret == -E2BIG && !full && (src_used || dst_used));
	return ret;
}

/**
 * utfconv_convert_user() - the work of %UTFCONV_IOC_CONVERT
 * @cv: the validated request; its out fields are filled
 * @mode: its configuration for the codec
 * @in_buf: bounce buffer for input, @in_bytes long
 * @in_bytes: its size: at least 1, at most %UTFCONV_IN_BYTES
 * @out_buf: bounce buffer for output, @out_bytes long
 * @out_bytes: its size: at most %UTFCONV_OUT_BYTES
 *
 * Converts in steps of at most @in_bytes input bytes with a stream state
 * of its own, %UTFCONV_END on the last step. Every byte written to dst
 * is counted in @cv->dst_used, and @cv->src_used is the input of the
 * whole characters among them.
 *
 * Context: Process context; may sleep.
 * Return:
 * * 0 - all input converted
 * * -EILSEQ - strict: ill-formed input at @cv->error_offset
 * * -EINVAL - strict: the input ends inside a character
 * * -E2BIG - the next character does not fit into the destination
 * * -EFAULT - the source or destination is not accessible; after a
 *   partial copy to dst, @cv->dst_used may end inside a character
 * * -EINTR - a signal is pending and input is left; the counts say how
 *   far it got (never after the last step)
 */
static int utfconv_convert_user(struct utfconv_convert *cv,
				const struct utfconv_mode *mode, u8 *in_buf,
				size_t in_bytes, u8 *out_buf, size_t out_bytes)
{
	const u8 __user *src = u64_to_user_ptr(cv->src);
	struct utfconv_state st;
	u64 src_done = 0;
	u64 dst_done = 0;
	unsigned int cflags;
	size_t chunk;
	int ret;

	ret = utfconv_init(&st, mode->direction, mode->policy, mode->flags);
	if (ret)
		return ret;

	for (;;) {
		chunk = min_t(u64, cv->src_bytes - src_done, in_bytes);
		if (copy_from_user(in_buf, src + src_done, chunk)) {
			ret = -EFAULT;
			break;
		}
		cflags = src_done + chunk == cv->src_bytes ? UTFCONV_END : 0;
		ret = utfconv_convert_chunk(cv, &st, in_buf, chunk, cflags,
					    out_buf, out_bytes, &dst_done);
		if (ret)
			break;
		src_done += chunk;
		if (src_done == cv->src_bytes)
			break;
		/*
		 * Only a signal stops it, and only with input left: the
		 * notification of task work (io_uring) is not one, and a
		 * caller that gets -EINTR goes on from src_used.
		 */
		if (task_sigpending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}

	/* Input held pending was not converted. */
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

/**
 * utfconv_user_range() - check a user buffer given as address and size
 * @addr: its user address
 * @bytes: its size in bytes
 * @end: out: @addr + @bytes
 *
 * Context: Process context.
 * Return: 0, or -EFAULT if the range wraps around, does not fit the
 * kernel's pointer and size types, or is not in user space.
 */
static int utfconv_user_range(u64 addr, u64 bytes, u64 *end)
{
	if (check_add_overflow(addr, bytes, end))
		return -EFAULT;
	if ((uintptr_t)addr != addr || (size_t)bytes != bytes)
		return -EFAULT;
	if (!access_ok(u64_to_user_ptr(addr), bytes))
		return -EFAULT;
	return 0;
}

/**
 * utfconv_ioctl_convert() - %UTFCONV_IOC_CONVERT
 * @argp: user address of a &struct utfconv_convert
 * @usize: its size, from the command
 *
 * Validates the request, then converts through bounce buffers of its own
 * (at most %UTFCONV_IN_BYTES + %UTFCONV_OUT_BYTES, charged to the caller),
 * so that it neither touches nor waits for the file's stream. Even large
 * calls keep the copies: converting between pinned user pages would let
 * another thread change the source while the codec reads it, and dst
 * must change only in its &utfconv_convert.dst_used bytes, where the
 * codec's contract (utfconv_convert()) promises only never to write past
 * the room it is given, not to leave the room after its output alone.
 *
 * Context: Process context; may sleep.
 * Return: as utfconv_convert_user(), or -EINVAL for an invalid request
 * or overlapping buffers, -EFAULT if @argp is not accessible or a
 * buffer's range wraps or leaves user space (nothing written), -ENOMEM
 * if out of memory.
 */
static long utfconv_ioctl_convert(void __user *argp, size_t usize)
{
	struct utfconv_mode mode;
	struct utfconv_convert cv;
	size_t out_bytes;
	size_t in_bytes;
	u64 src_end;
	u64 dst_end;
	u8 *out_buf;
	u8 *in_buf;
	int ret;

	ret = copy_struct_from_user(&cv, sizeof(cv), argp, usize);
	if (ret)
		return ret;
	ret = utfconv_check_config(cv.source, cv.target, cv.policy, cv.flags,
				   cv.padding, sizeof(cv.padding), &mode);
	if (ret)
		return ret;
	ret = utfconv_user_range(cv.src, cv.src_bytes, &src_end);
	if (!ret)
		ret = utfconv_user_range(cv.dst, cv.dst_bytes, &dst_end);
	if (ret)
		return ret;
	/* src is read while dst is written: they must not overlap */
	if (cv.src_bytes && cv.dst_bytes && cv.src < dst_end &&
	    cv.dst < src_end)
		return -EINVAL;

	/*
	 * Two allocations, each at most KMALLOC_MAX_CACHE_SIZE, so that both
	 * come from the slab caches: one of their sum would take an order-2
	 * block from the page allocator and give it back on every call (and
	 * under init_on_alloc zero all of its 16 KiB, not only the 12 used).
	 * kmalloc(0) gives ZERO_SIZE_PTR: no room, never dereferenced.
	 */
	in_bytes = max_t(u64, min_t(u64, cv.src_bytes, UTFCONV_IN_BYTES), 1);
	out_bytes = min_t(u64, cv.dst_bytes, UTFCONV_OUT_BYTES);
	in_buf = kmalloc(in_bytes, GFP_KERNEL_ACCOUNT);
	out_buf = kmalloc(out_bytes, GFP_KERNEL_ACCOUNT);
	if (!in_buf || !out_buf) {
		kfree(out_buf);
		kfree(in_buf);
		return -ENOMEM;
	}
	ret = utfconv_convert_user(&cv, &mode, in_buf, in_bytes, out_buf,
				   out_bytes);
	kfree(out_buf);
	kfree(in_buf);

	if (utfconv_copy_out(argp, usize, &cv, sizeof(cv)))
		return -EFAULT;
	return ret;
}

/**
 * utfconv_cmd_is() - whether an ioctl command is a version of another
 * @cmd: the command given
 * @ref: the command of this module's header
 * @min_size: the size of the first version of its structure
 *
 * Context: Any context.
 * Return: true if @cmd has the type, number and direction of @ref and a
 * size of at least @min_size.
 */
static bool utfconv_cmd_is(unsigned int cmd, unsigned int ref,
			   size_t min_size)
{
	return _IOC_TYPE(cmd) == _IOC_TYPE(ref) &&
	       _IOC_NR(cmd) == _IOC_NR(ref) &&
	       _IOC_DIR(cmd) == _IOC_DIR(ref) && _IOC_SIZE(cmd) >= min_size;
}

/**
 * utfconv_ioctl() - control a stream, or convert one buffer
 * @file: the stream
 * @cmd: UTFCONV_IOC_*
 * @arg: user address of the command's structure, if it has one
 *
 * %UTFCONV_IOC_GET_INFO fills &struct utfconv_info.
 *
 * %UTFCONV_IOC_SET_CONFIG sets source and target encodings, policy and
 * flags (the device maps them to a codec direction). It is refused
 * with -EBUSY unless the stream is fresh: just opened or reset, with no
 * input taken (counted or pending), no output produced or unread, not
 * flushed and not failed. A rejected configuration leaves the stream as
 * it was.
 *
 * %UTFCONV_IOC_GET_CONFIG returns the configuration, %UTFCONV_IOC_GET_STATUS
 * the counters, first error, state bits, pending and ready bytes; the
 * padding of both is written as zero.
 *
 * %UTFCONV_IOC_FLUSH ends the input: a pending tail becomes U+FFFD
 * (replace), nothing (skip) or an incomplete error (strict, wtf8). Once
 * the output is read, read() returns 0 and write() -EPIPE. It waits for
 * room if the final output does not fit; a %UTFCONV_IOC_RESET meanwhile
 * discards that stream with its output, and the flush fails with
 * -ECANCELED leaving the new stream alone (a caller that read on until
 * end of file would wait on the new stream). Flushing again returns the
 * first flush's result.
 *
 * %UTFCONV_IOC_RESET empties the stream: counters, pending input, unread
 * output, end and error; the configuration stays.
 *
 * %UTFCONV_IOC_CONVERT converts &utfconv_convert.src into
 * &utfconv_convert.dst under the configuration given in the structure,
 * as one complete input, without touching or waiting for the stream
 * (it uses bounce buffers of its own, not the stream's). The structure is
 * written back, also when the call fails: src_used, dst_used (every byte
 * written), error_kind, error_offset, replacements.
 *
 * A command with a structure is recognised by its type, number and
 * direction; its size may be that of the structure's first version or
 * larger (a newer header): larger input must be zero past the fields this
 * module knows (copy_struct_from_user(), else -E2BIG), larger output is
 * zeroed there. A smaller size is an unknown command.
 *
 * Context: Process context; may sleep (FLUSH waits for room, CONVERT
 * copies and converts in steps). The stream's lock is held only for
 * bounded steps, never across a user copy or a wait.
 * Return:
 * * 0 - success
 * * -EINVAL - SET_CONFIG or CONVERT: unknown or unsupported encodings,
 *   unknown policy or flag bits, or nonzero padding; CONVERT: src and dst
 *   overlap; FLUSH or
 *   CONVERT: input ends inside a
 *   character (strict, wtf8); also any stream command after a flush found
 *   such an input
 * * -EILSEQ - FLUSH: the stream stopped at ill-formed input; CONVERT:
 *   ill-formed input (strict, wtf8)
 * * -E2BIG - CONVERT: the next character does not fit into dst;
 *   SET_CONFIG or CONVERT: nonzero bytes past the known structure
 * * -EBUSY - SET_CONFIG on a stream that is not fresh
 * * -EAGAIN - FLUSH: the final output does not fit and the file is
 *   non-blocking
 * * -ECANCELED - FLUSH: a RESET discarded the stream while it waited
 * * -EFAULT - @arg, src or dst is not accessible
 * * -EINTR - CONVERT: a signal is pending and input is left (the counts say
 *   how far it got)
 * * -ENOMEM - FLUSH or CONVERT: out of memory for bounce buffers
 * * -ERESTARTSYS - FLUSH: interrupted by a signal while waiting for room
 * * -ENOIOCTLCMD - unknown @cmd (-ENOTTY to userspace)
 */
static long utfconv_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct utfconv_file *uf = file->private_data;
	void __user *argp = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);

	if (_IOC_TYPE(cmd) != UTFCONV_IOC_MAGIC)
		return -ENOIOCTLCMD;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(UTFCONV_IOC_GET_INFO):
		if (!utfconv_cmd_is(cmd, UTFCONV_IOC_GET_INFO,
				    UTFCONV_INFO_SIZE_VER0))
			break;
		return utfconv_ioctl_get_info(argp, usize);
	case _IOC_NR(UTFCONV_IOC_SET_CONFIG):
		if (!utfconv_cmd_is(cmd, UTFCONV_IOC_SET_CONFIG,
				    UTFCONV_CONFIG_SIZE_VER0))
			break;
		return utfconv_ioctl_set_config(uf, argp, usize);
	case _IOC_NR(UTFCONV_IOC_GET_CONFIG):
		if (!utfconv_cmd_is(cmd, UTFCONV_IOC_GET_CONFIG,
				    UTFCONV_CONFIG_SIZE_VER0))
			break;
		return utfconv_ioctl_get_config(uf, argp, usize);
	case _IOC_NR(UTFCONV_IOC_GET_STATUS):
		if (!utfconv_cmd_is(cmd, UTFCONV_IOC_GET_STATUS,
				    UTFCONV_STATUS_SIZE_VER0))
			break;
		return utfconv_ioctl_get_status(uf, argp, usize);
	case _IOC_NR(UTFCONV_IOC_FLUSH):
		if (cmd != UTFCONV_IOC_FLUSH)
			break;
		return utfconv_ioctl_flush(uf, file);
	case _IOC_NR(UTFCONV_IOC_RESET):
		if (cmd != UTFCONV_IOC_RESET)
			break;
		return utfconv_ioctl_reset(uf);
	case _IOC_NR(UTFCONV_IOC_CONVERT):
		if (!utfconv_cmd_is(cmd, UTFCONV_IOC_CONVERT,
				    UTFCONV_CONVERT_SIZE_VER0))
			break;
		return utfconv_ioctl_convert(argp, usize);
	}
	return -ENOIOCTLCMD;
}

/**
 * utfconv_enc_name() - the name of an encoding, for fdinfo
 * @enc: UTFCONV_ENC_*
 *
 * Context: Any context.
 * Return: its name as iconv spells it.
 */
static const char *utfconv_enc_name(u32 enc)
{
	switch (enc) {
	case UTFCONV_ENC_UTF8:
		return "UTF-8";
	case UTFCONV_ENC_UTF16LE:
		return "UTF-16LE";
	default:
		return "UTF-16BE";
	}
}

/**
 * utfconv_show_fdinfo() - the stream's counters in /proc/<pid>/fdinfo/<fd>
 * @m: the fdinfo file
 * @file: the stream
 *
 * Prints the configuration, the counters and the first error, as
 * %UTFCONV_IOC_GET_STATUS and %UTFCONV_IOC_GET_CONFIG report them, one
 * "utfconv-<name>:\t<value>" line each (byte counts in bytes). The
 * values are one snapshot taken under the stream's lock.
 *
 * Context: Process context; takes the stream's lock.
 */
static void utfconv_show_fdinfo(struct seq_file *m, struct file *file)
{
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
	struct utfconv_file *uf = file->private_data;
	struct utfconv_config config = {};
	struct utfconv_state st;
	unsigned int ready;
	bool ended;

	utfconv_lock(uf);
	st = uf->state;
	ready = kfifo_len(&uf->fifo);
	ended = utfconv_ended_locked(uf);
	utfconv_unlock(uf);
	utfconv_config_of(&st, &config);

	seq_printf(m, "utfconv-source:\t%s\n", utfconv_enc_name(config.source));
	seq_printf(m, "utfconv-target:\t%s\n", utfconv_enc_name(config.target));
	seq_printf(m, "utfconv-policy:\t%s\n",
		   policies[min_t(u32, config.policy, UTFCONV_POLICY_MAX)]);
	seq_printf(m, "utfconv-flags:\t%#x\n", config.flags);
	seq_printf(m, "utfconv-bytes-in:\t%llu\n", st.bytes_in);
	seq_printf(m, "utfconv-bytes-out:\t%llu\n", st.bytes_out);
	seq_printf(m, "utfconv-code-points:\t%llu\n", st.code_points);
	seq_printf(m, "utfconv-replacements:\t%llu\n", st.replacements);
	seq_printf(m, "utfconv-error-kind:\t%s\n",
		   kinds[min_t(u32, st.error_kind, UTFCONV_ERR_INCOMPLETE)]);
	seq_printf(m, "utfconv-error-offset:\t%llu\n",
		   st.error_kind != UTFCONV_ERR_NONE ? st.error_offset : 0);
	seq_printf(m, "utfconv-state:\t%s\n", utfconv_error(&st) ?
		   "failed" : ended ? "ended" : "open");
	seq_printf(m, "utfconv-pending-bytes:\t%u\n", utfconv_pending_bytes(&st));
	seq_printf(m, "utfconv-ready-bytes:\t%u\n", ready);
}

static const struct file_operations utfconv_fops = {
	.owner		= THIS_MODULE,
	.open		= utfconv_open,
	.release	= utfconv_release,
	.read_iter	= utfconv_read_iter,
	.write_iter	= utfconv_write_iter,
	.poll		= utfconv_poll,
	.unlocked_ioctl	= utfconv_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.show_fdinfo	= utfconv_show_fdinfo,
};

static struct miscdevice utfconv_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= UTFCONV_DEV_NAME,
	.fops		= &utfconv_fops,
	.mode		= 0666,
};

/**
 * utfconv_dev_init() - register /dev/utfconv
 *
 * buffer_bytes was checked as it was parsed (utfconv_buffer_bytes_set()).
 *
 * Context: Module load; may sleep.
 * Return: 0, or the negative errno of misc_register().
 */
static int __init utfconv_dev_init(void)
{
	BUILD_BUG_ON(sizeof(struct utfconv_info) != UTFCONV_INFO_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct utfconv_config) != UTFCONV_CONFIG_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct utfconv_status) != UTFCONV_STATUS_SIZE_VER0);
	BUILD_BUG_ON(sizeof(struct utfconv_convert) !=
		     UTFCONV_CONVERT_SIZE_VER0);
	return misc_register(&utfconv_misc);
}
module_init(utfconv_dev_init);

/**
 * utfconv_dev_exit() - unregister /dev/utfconv
 *
 * Context: Module unload; no file is open (each holds a module reference).
 */
static void __exit utfconv_dev_exit(void)
{
	misc_deregister(&utfconv_misc);
}
module_exit(utfconv_dev_exit);

MODULE_DESCRIPTION("UTF-8 <-> UTF-16 conversion device /dev/utfconv");
MODULE_AUTHOR("utfconv developers");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0");
