/*
 * cutfs: a FUSE file system that can lose power.
 *
 * A passthrough file system over a directory of live files that also keeps, apart from them, what a
 * power cut would leave: the content of every file as of its last fsync (or fdatasync, msync, or a
 * write through a descriptor opened O_SYNC, O_DSYNC or O_DIRECT), and the entries of every directory
 * as of that directory's last fsync. Writing "cut" to the control file /.cutfs replaces the live tree
 * by that durable state, file by file, and drops everything else: unsynced writes, files whose
 * directory entry was never synced, renames and unlinks not followed by a directory fsync.
 * Reading /.cutfs returns counters. The semantics and their limits are in docs/testing.md ("Power
 * cuts"); the conformance suite's PowerCutFileSystem compiles, mounts and drives this program.
 *
 * Usage: cutfs STATE_DIR MOUNTPOINT [FUSE options]. STATE_DIR holds live.N/ (the live tree of
 * generation N) and shadow/ (the durable content of each file, named by node id). Whatever
 * STATE_DIR/live.0 holds when the file system starts counts as durable.
 *
 * Run single-threaded (-s): a cut then happens between two requests, never inside one. The daemon
 * exits (and unmounts) when its parent process dies.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096ULL
#define BUCKETS 65536
#define CONTROL "/.cutfs"
#define NO_FLOOR UINT64_MAX

struct node;

/* A directory entry as of the directory's last fsync. */
struct dent {
  char *name;
  struct node *child;
};

/* A file, directory or symlink: what the live tree has and what a cut would leave of it. */
struct node {
  uint64_t id;          /* names its durable content: shadow/<id> */
  ino_t ino;            /* its inode in the live tree, while it is there */
  int live;             /* in the live tree (and in the inode table) */
  mode_t mode;          /* type and permissions */
  uid_t uid;
  gid_t gid;
  int has_shadow;       /* shadow/<id> holds its durable content; without it, that content is empty */
  uint8_t *dirty;       /* pages written since the last sync, a bit each */
  size_t dirty_bytes;   /* length of the bitmap */
  uint64_t floor;       /* the smallest size the file had since its last sync */
  char *link;           /* a symlink's target */
  struct dent *durable; /* a directory's entries as of its last fsync */
  size_t ndurable;
  int refs;             /* durable directory entries naming it */
  uint64_t built;       /* the generation a cut rebuilt it in */
  char *built_path;     /* where, under the state directory (for hard links) */
  struct node *hnext;   /* inode table chain */
  struct node *anext;   /* list of every node */
};

/* An open file or directory. */
struct handle {
  int fd;
  struct node *node;
  uint64_t gen;     /* the generation it was opened in: stale after a cut */
  int sync_writes;  /* opened O_SYNC, O_DSYNC or O_DIRECT: each write is durable when it returns */
  DIR *dir;
};

static int state_fd = -1, shadow_fd = -1, live_fd = -1;
static uint64_t gen = 0, next_id = 1;
static struct node *table[BUCKETS];
static struct node *all_nodes;
static struct node *root;
static pid_t parent;
static struct handle control_handle;

/* Counters, read from /.cutfs. */
static uint64_t n_fsync, n_fsyncdir, n_sync_writes, n_cuts;
static uint64_t cut_dropped_bytes, cut_vanished, cut_kept_files;
static uint64_t total_dropped_bytes, total_vanished;

static const char *rel(const char *path) {
  return path[1] ? path + 1 : ".";
}

static struct node *lookup_ino(ino_t ino) {
  for (struct node *n = table[ino % BUCKETS]; n; n = n->hnext) {
    if (n->ino == ino) {
      return n;
    }
  }
  return NULL;
}

static void table_put(struct node *n) {
  n->hnext = table[n->ino % BUCKETS];
  table[n->ino % BUCKETS] = n;
  n->live = 1;
}

/* Takes a node out of the inode table: its inode left the live tree and may be reused. */
static void detach(struct node *n) {
  if (!n || !n->live) {
    return;
  }
  struct node **p = &table[n->ino % BUCKETS];
  while (*p && *p != n) {
    p = &(*p)->hnext;
  }
  if (*p) {
    *p = n->hnext;
  }
  n->live = 0;
  n->hnext = NULL;
}

/* The node of a live inode; a new one (nothing durable yet) when the inode is unknown. */
static struct node *node_of(const struct stat *st, int dirfd, const char *name) {
  struct node *n = lookup_ino(st->st_ino);
  if (n && (n->mode & S_IFMT) != (st->st_mode & S_IFMT)) {
    detach(n); /* an inode reused behind our back */
    n = NULL;
  }
  if (!n) {
    n = calloc(1, sizeof *n);
    n->id = next_id++;
    n->ino = st->st_ino;
    n->floor = NO_FLOOR;
    n->anext = all_nodes;
    all_nodes = n;
    table_put(n);
    if (S_ISLNK(st->st_mode) && name) {
      char buf[4096];
      ssize_t len = readlinkat(dirfd, name, buf, sizeof buf - 1);
      buf[len < 0 ? 0 : len] = 0;
      n->link = strdup(buf);
    }
  }
  n->mode = st->st_mode;
  n->uid = st->st_uid;
  n->gid = st->st_gid;
  return n;
}

static void mark_dirty(struct node *n, uint64_t off, uint64_t len) {
  if (len == 0) {
    return;
  }
  uint64_t first = off / PAGE, last = (off + len - 1) / PAGE;
  size_t need = (size_t)(last / 8 + 1);
  if (need > n->dirty_bytes) {
    size_t grown = n->dirty_bytes ? n->dirty_bytes : 64;
    while (grown < need) {
      grown *= 2;
    }
    n->dirty = realloc(n->dirty, grown);
    memset(n->dirty + n->dirty_bytes, 0, grown - n->dirty_bytes);
    n->dirty_bytes = grown;
  }
  for (uint64_t p = first; p <= last; p++) {
    n->dirty[p / 8] |= (uint8_t)(1u << (p % 8));
  }
}

static int is_dirty(const struct node *n, uint64_t page) {
  return page / 8 < n->dirty_bytes && (n->dirty[page / 8] >> (page % 8)) & 1;
}

static void shadow_name(const struct node *n, char *buf, size_t len) {
  snprintf(buf, len, "%" PRIu64, n->id);
}

static int copy_range(int from, int to, uint64_t off, uint64_t len) {
  static char buf[1 << 20];
  while (len > 0) {
    size_t chunk = len < sizeof buf ? (size_t)len : sizeof buf;
    ssize_t r = pread(from, buf, chunk, (off_t)off);
    if (r < 0) {
      return -errno;
    }
    if (r == 0) {
      break;
    }
    for (ssize_t done = 0; done < r;) {
      ssize_t w = pwrite(to, buf + done, (size_t)(r - done), (off_t)(off + (uint64_t)done));
      if (w < 0) {
        return -errno;
      }
      done += w;
    }
    off += (uint64_t)r;
    len -= (uint64_t)r;
  }
  return 0;
}

/* Makes what the live file holds (read through fd) the file's durable content. */
static int sync_file(struct node *n, int fd) {
  struct stat st;
  if (fstat(fd, &st) < 0) {
    return -errno;
  }
  char name[32];
  shadow_name(n, name, sizeof name);
  int sfd = openat(shadow_fd, name, O_RDWR | O_CREAT, 0600);
  if (sfd < 0) {
    return -errno;
  }
  uint64_t size = (uint64_t)st.st_size;
  uint64_t floor = n->has_shadow ? n->floor : 0; /* never synced: all of it is new */
  uint64_t pages = (size + PAGE - 1) / PAGE;
  int rc = 0;
  for (uint64_t p = 0; p < pages && rc == 0;) {
    if (!is_dirty(n, p) && (p + 1) * PAGE <= floor) {
      p++;
      continue;
    }
    uint64_t q = p;
    while (q < pages && (is_dirty(n, q) || (q + 1) * PAGE > floor)) {
      q++;
    }
    uint64_t end = q * PAGE < size ? q * PAGE : size;
    rc = copy_range(fd, sfd, p * PAGE, end - p * PAGE);
    p = q;
  }
  if (rc == 0 && ftruncate(sfd, (off_t)size) < 0) {
    rc = -errno;
  }
  close(sfd);
  if (rc == 0) {
    n->has_shadow = 1;
    n->floor = NO_FLOOR;
    if (n->dirty) {
      memset(n->dirty, 0, n->dirty_bytes);
    }
    n->mode = st.st_mode;
    n->uid = st.st_uid;
    n->gid = st.st_gid;
  }
  return rc;
}

/* Makes the entries the live directory relpath (under at) holds its durable entries. */
static int sync_dir(struct node *dn, int at, const char *relpath) {
  int dfd = openat(at, relpath, O_RDONLY | O_DIRECTORY);
  if (dfd < 0) {
    return -errno;
  }
  DIR *d = fdopendir(dfd);
  if (!d) {
    int e = errno;
    close(dfd);
    return -e;
  }
  size_t cap = 16, count = 0;
  struct dent *entries = malloc(cap * sizeof *entries);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) {
      continue;
    }
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
      continue; /* gone meanwhile */
    }
    if (count == cap) {
      cap *= 2;
      entries = realloc(entries, cap * sizeof *entries);
    }
    entries[count].name = strdup(e->d_name);
    entries[count].child = node_of(&st, dirfd(d), e->d_name);
    count++;
  }
  closedir(d);
  for (size_t i = 0; i < count; i++) {
    entries[i].child->refs++;
  }
  for (size_t i = 0; i < dn->ndurable; i++) {
    dn->durable[i].child->refs--;
    free(dn->durable[i].name);
  }
  free(dn->durable);
  dn->durable = entries;
  dn->ndurable = count;
  return 0;
}

/*
 * What ext4 promises beyond POSIX, and what engines rely on (PostgreSQL's relation files): an fsync of a
 * file that no synced directory entry names yet makes the name it was reached by durable, and so on up
 * while its directories are new too. Nothing else of those directories' pending changes becomes durable:
 * a rename or an unlink still waits for a directory fsync.
 */
static void name_new_file(struct node *n, const char *path) {
  while (n && n != root && n->refs == 0 && path && path[0] == '/' && path[1]) {
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    const char *name = path + (slash - parent) + 1;
    if (slash == parent) {
      parent[1] = 0;
    } else {
      *slash = 0;
    }
    struct stat st;
    if (fstatat(live_fd, rel(parent), &st, 0) < 0) {
      return;
    }
    struct node *dn = node_of(&st, live_fd, NULL);
    size_t i = 0;
    while (i < dn->ndurable && strcmp(dn->durable[i].name, name)) {
      i++;
    }
    if (i == dn->ndurable) {
      dn->durable = realloc(dn->durable, (dn->ndurable + 1) * sizeof *dn->durable);
      dn->durable[i].name = strdup(name);
      dn->ndurable++;
    } else {
      dn->durable[i].child->refs--;
    }
    dn->durable[i].child = n;
    n->refs++;
    static char up[PATH_MAX];
    snprintf(up, sizeof up, "%s", parent);
    n = dn;
    path = up;
  }
}

/* Makes everything under the live directory relpath durable: a clean state to start from. */
static int sync_all(const char *relpath) {
  struct stat st;
  if (fstatat(live_fd, relpath, &st, AT_SYMLINK_NOFOLLOW) < 0) {
    return -errno;
  }
  struct node *n = node_of(&st, live_fd, relpath);
  if (S_ISREG(st.st_mode)) {
    int fd = openat(live_fd, relpath, O_RDONLY);
    if (fd < 0) {
      return -errno;
    }
    int rc = sync_file(n, fd);
    close(fd);
    return rc;
  }
  if (!S_ISDIR(st.st_mode)) {
    return 0;
  }
  int rc = sync_dir(n, live_fd, relpath);
  for (size_t i = 0; rc == 0 && i < n->ndurable; i++) {
    char child[PATH_MAX];
    snprintf(child, sizeof child, "%s/%s", relpath, n->durable[i].name);
    rc = sync_all(child);
  }
  return rc;
}

// ---------------------------------------------------------------- the cut

static int remove_tree(int at, const char *name) {
  struct stat st;
  if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
    return 0;
  }
  if (S_ISDIR(st.st_mode)) {
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
      DIR *d = fdopendir(fd);
      for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
          remove_tree(dirfd(d), e->d_name);
        }
      }
      if (d) {
        closedir(d);
      } else {
        close(fd);
      }
    }
    return unlinkat(at, name, AT_REMOVEDIR);
  }
  return unlinkat(at, name, 0);
}

/* Builds, in the directory dfd (path under the state directory: dpath), the durable entries of dn. */
static int rebuild(struct node *dn, int dfd, const char *dpath) {
  for (size_t i = 0; i < dn->ndurable; i++) {
    struct node *c = dn->durable[i].child;
    const char *name = dn->durable[i].name;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dpath, name);
    if (S_ISDIR(c->mode)) {
      if (c->built == gen) {
        continue; /* a directory moved between two synced parents: keep the first */
      }
      if (mkdirat(dfd, name, c->mode & 07777) < 0) {
        return -errno;
      }
      fchownat(dfd, name, c->uid, c->gid, AT_SYMLINK_NOFOLLOW);
      c->built = gen;
      free(c->built_path);
      c->built_path = strdup(path);
      int cfd = openat(dfd, name, O_RDONLY | O_DIRECTORY);
      if (cfd < 0) {
        return -errno;
      }
      int rc = rebuild(c, cfd, path);
      close(cfd);
      if (rc) {
        return rc;
      }
    } else if (S_ISLNK(c->mode)) {
      if (symlinkat(c->link ? c->link : "", dfd, name) < 0) {
        return -errno;
      }
      fchownat(dfd, name, c->uid, c->gid, AT_SYMLINK_NOFOLLOW);
      c->built = gen;
      free(c->built_path);
      c->built_path = strdup(path);
    } else if (c->built == gen && c->built_path) {
      if (linkat(state_fd, c->built_path, dfd, name, 0) < 0) {
        return -errno;
      }
    } else {
      int fd = openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY, c->mode & 07777);
      if (fd < 0) {
        return -errno;
      }
      int rc = 0;
      if (c->has_shadow) {
        char sname[32];
        shadow_name(c, sname, sizeof sname);
        int sfd = openat(shadow_fd, sname, O_RDONLY);
        if (sfd < 0) {
          rc = -errno;
        } else {
          struct stat st;
          fstat(sfd, &st);
          rc = copy_range(sfd, fd, 0, (uint64_t)st.st_size);
          if (rc == 0 && ftruncate(fd, st.st_size) < 0) {
            rc = -errno;
          }
          close(sfd);
        }
      }
      fchown(fd, c->uid, c->gid);
      fchmod(fd, c->mode & 07777);
      close(fd);
      if (rc) {
        return rc;
      }
      c->built = gen;
      free(c->built_path);
      c->built_path = strdup(path);
      cut_kept_files++;
    }
  }
  return 0;
}

static uint64_t dirty_bytes_of(const struct node *n);

/*
 * Says on standard error what the cut does to each live file under at/name (path: its path in the mount),
 * and drops what the kernel cached of it.
 */
static void report_walk(int at, const char *name, const char *path) {
  struct stat st;
  if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
    return;
  }
  struct node *n = lookup_ino(st.st_ino);
  /* the kernel's cached pages and attributes of this path are of the old tree: drop them */
  fuse_invalidate_path(fuse_get_context()->fuse, path[0] ? path : "/");
  if (S_ISDIR(st.st_mode)) {
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        char child[PATH_MAX];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        report_walk(dirfd(d), e->d_name, child);
      }
    }
    if (d) {
      closedir(d);
    }
  } else if (S_ISREG(st.st_mode)) {
    if (!n || n->built != gen) {
      fprintf(stderr, "cut %" PRIu64 ": lost %s (%lld bytes): no synced directory entry reaches it\n", gen, path,
              (long long)st.st_size);
    } else if (dirty_bytes_of(n) > 0 || !n->has_shadow) {
      fprintf(stderr, "cut %" PRIu64 ": %s loses %" PRIu64 " bytes of unsynced pages%s\n", gen, path,
              dirty_bytes_of(n), n->has_shadow ? "" : " (never synced: empty after the cut)");
    }
  }
}

static uint64_t dirty_bytes_of(const struct node *n) {
  uint64_t pages = 0;
  for (size_t i = 0; i < n->dirty_bytes; i++) {
    pages += (uint64_t)__builtin_popcount(n->dirty[i]);
  }
  return pages * PAGE;
}

/* The power cut: the live tree becomes what the durable state holds; the rest is lost. */
static int cut(void) {
  gen++;
  n_cuts++;
  cut_dropped_bytes = 0;
  cut_vanished = 0;
  cut_kept_files = 0;
  char live_name[64];
  snprintf(live_name, sizeof live_name, "live.%" PRIu64, gen);
  remove_tree(state_fd, live_name);
  if (mkdirat(state_fd, live_name, root->mode & 07777) < 0) {
    return -errno;
  }
  fchownat(state_fd, live_name, root->uid, root->gid, 0);
  int nfd = openat(state_fd, live_name, O_RDONLY | O_DIRECTORY);
  if (nfd < 0) {
    return -errno;
  }
  root->built = gen;
  int rc = rebuild(root, nfd, live_name);
  if (rc) {
    close(nfd);
    return rc;
  }
  /* What the cut dropped: unsynced pages of live files, and live files no synced entry reaches. */
  for (struct node *n = all_nodes; n; n = n->anext) {
    if (!S_ISREG(n->mode)) {
      continue;
    }
    if (n->built == gen) {
      cut_dropped_bytes += dirty_bytes_of(n);
    } else if (n->live) {
      cut_vanished++;
    }
  }
  total_dropped_bytes += cut_dropped_bytes;
  total_vanished += cut_vanished;
  report_walk(live_fd, ".", "");
  fflush(stderr);
  /* The old live tree goes; the nodes the cut kept get their new inodes, the others go with it. */
  char old_name[64];
  snprintf(old_name, sizeof old_name, "live.%" PRIu64, gen - 1);
  close(live_fd);
  live_fd = nfd;
  remove_tree(state_fd, old_name);
  memset(table, 0, sizeof table);
  struct node **p = &all_nodes;
  while (*p) {
    struct node *n = *p;
    n->live = 0;
    n->hnext = NULL;
    free(n->dirty);
    n->dirty = NULL;
    n->dirty_bytes = 0;
    n->floor = NO_FLOOR;
    if (n->built == gen) {
      struct stat st;
      int ok = n == root ? fstat(live_fd, &st) == 0
                         : (n->built_path && fstatat(state_fd, n->built_path, &st, AT_SYMLINK_NOFOLLOW) == 0);
      if (ok) {
        n->ino = st.st_ino;
        table_put(n);
      }
      p = &n->anext;
    } else {
      if (n->has_shadow) {
        char sname[32];
        shadow_name(n, sname, sizeof sname);
        unlinkat(shadow_fd, sname, 0);
      }
      for (size_t i = 0; i < n->ndurable; i++) {
        free(n->durable[i].name);
      }
      free(n->durable);
      free(n->link);
      free(n->built_path);
      *p = n->anext;
      free(n);
    }
  }
  return 0;
}

// ---------------------------------------------------------------- the control file

static int control_read(char *buf, size_t size, off_t off) {
  char text[1024];
  int len = snprintf(text, sizeof text,
                     "generation %" PRIu64 "\ncuts %" PRIu64 "\nfsyncs %" PRIu64 "\ndirectory_fsyncs %" PRIu64
                     "\nsync_writes %" PRIu64 "\nlast_cut_dropped_bytes %" PRIu64 "\nlast_cut_vanished_files %" PRIu64
                     "\nlast_cut_kept_files %" PRIu64 "\ntotal_dropped_bytes %" PRIu64 "\ntotal_vanished_files %" PRIu64
                     "\n",
                     gen, n_cuts, n_fsync, n_fsyncdir, n_sync_writes, cut_dropped_bytes, cut_vanished, cut_kept_files,
                     total_dropped_bytes, total_vanished);
  if (off >= len) {
    return 0;
  }
  size_t n = (size_t)(len - off) < size ? (size_t)(len - off) : size;
  memcpy(buf, text + off, n);
  return (int)n;
}

static int control_write(const char *buf, size_t size) {
  char cmd[32] = {0};
  memcpy(cmd, buf, size < sizeof cmd - 1 ? size : sizeof cmd - 1);
  cmd[strcspn(cmd, "\r\n ")] = 0;
  int rc;
  if (!strcmp(cmd, "cut")) {
    rc = cut();
  } else if (!strcmp(cmd, "syncall")) {
    rc = sync_all(".");
  } else {
    rc = -EINVAL;
  }
  return rc < 0 ? rc : (int)size;
}

// ---------------------------------------------------------------- file system operations

static struct handle *handle_of(struct fuse_file_info *fi) {
  return fi ? (struct handle *)(uintptr_t)fi->fh : NULL;
}

static int stale(const struct handle *h) {
  return h && h != &control_handle && h->gen != gen;
}

static void own(int dirfd, const char *name) {
  struct fuse_context *ctx = fuse_get_context();
  fchownat(dirfd, name, ctx->uid, ctx->gid, AT_SYMLINK_NOFOLLOW);
}

static void *cutfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  (void)conn;
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  cfg->hard_remove = 1;
  cfg->nullpath_ok = 0; /* the path of an open file too (NULL once unlinked): an fsync names a new file by it */
  cfg->kernel_cache = 0;
  cfg->auto_cache = 0;
  cfg->use_ino = 0;
  conn->want &= ~FUSE_CAP_WRITEBACK_CACHE; /* every write reaches this process when it is made */
  return NULL;
}

static int cutfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  struct handle *h = handle_of(fi);
  if ((path && !strcmp(path, CONTROL)) || h == &control_handle) {
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFREG | 0600;
    st->st_nlink = 1;
    st->st_size = 0;
    return 0;
  }
  if (h && (h->fd >= 0 || h->dir)) {
    if (stale(h)) {
      return -EIO;
    }
    return fstat(h->fd >= 0 ? h->fd : dirfd(h->dir), st) < 0 ? -errno : 0;
  }
  return fstatat(live_fd, rel(path), st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int cutfs_readlink(const char *path, char *buf, size_t size) {
  ssize_t n = readlinkat(live_fd, rel(path), buf, size - 1);
  if (n < 0) {
    return -errno;
  }
  buf[n] = 0;
  return 0;
}

static int register_new(const char *path) {
  struct stat st;
  if (fstatat(live_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    node_of(&st, live_fd, rel(path));
  }
  return 0;
}

static int cutfs_mknod(const char *path, mode_t mode, dev_t dev) {
  if (!strcmp(path, CONTROL)) {
    return -EEXIST;
  }
  if (mknodat(live_fd, rel(path), mode, dev) < 0) {
    return -errno;
  }
  own(live_fd, rel(path));
  return register_new(path);
}

static int cutfs_mkdir(const char *path, mode_t mode) {
  if (mkdirat(live_fd, rel(path), mode) < 0) {
    return -errno;
  }
  own(live_fd, rel(path));
  return register_new(path);
}

static int cutfs_unlink(const char *path) {
  if (!strcmp(path, CONTROL)) {
    return -EPERM;
  }
  struct stat st;
  int known = fstatat(live_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (unlinkat(live_fd, rel(path), 0) < 0) {
    return -errno;
  }
  if (known && st.st_nlink <= 1) {
    detach(lookup_ino(st.st_ino));
  }
  return 0;
}

static int cutfs_rmdir(const char *path) {
  struct stat st;
  int known = fstatat(live_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (unlinkat(live_fd, rel(path), AT_REMOVEDIR) < 0) {
    return -errno;
  }
  if (known) {
    detach(lookup_ino(st.st_ino));
  }
  return 0;
}

static int cutfs_symlink(const char *target, const char *path) {
  if (symlinkat(target, live_fd, rel(path)) < 0) {
    return -errno;
  }
  own(live_fd, rel(path));
  return register_new(path);
}

static int cutfs_rename(const char *from, const char *to, unsigned int flags) {
  if (!strcmp(from, CONTROL) || !strcmp(to, CONTROL)) {
    return -EPERM;
  }
  struct stat src, dst;
  int had_src = fstatat(live_fd, rel(from), &src, AT_SYMLINK_NOFOLLOW) == 0;
  int had_dst = fstatat(live_fd, rel(to), &dst, AT_SYMLINK_NOFOLLOW) == 0;
  if (renameat2(live_fd, rel(from), live_fd, rel(to), flags) < 0) {
    return -errno;
  }
  if (had_dst && !(flags & RENAME_EXCHANGE) && !(had_src && src.st_ino == dst.st_ino)
      && (S_ISDIR(dst.st_mode) || dst.st_nlink <= 1)) {
    detach(lookup_ino(dst.st_ino)); /* replaced: its inode left the live tree */
  }
  return 0;
}

static int cutfs_link(const char *from, const char *to) {
  return linkat(live_fd, rel(from), live_fd, rel(to), 0) < 0 ? -errno : 0;
}

static int cutfs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
  struct handle *h = handle_of(fi);
  int rc = h && h->fd >= 0 ? fchmod(h->fd, mode) : fchmodat(live_fd, rel(path), mode, 0);
  if (rc < 0) {
    return -errno;
  }
  struct stat st;
  if ((h && h->fd >= 0 ? fstat(h->fd, &st) : fstatat(live_fd, rel(path), &st, 0)) == 0) {
    struct node *n = lookup_ino(st.st_ino);
    if (n) {
      n->mode = st.st_mode;
    }
  }
  return 0;
}

static int cutfs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
  struct handle *h = handle_of(fi);
  int rc = h && h->fd >= 0 ? fchown(h->fd, uid, gid) : fchownat(live_fd, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);
  if (rc < 0) {
    return -errno;
  }
  struct stat st;
  if ((h && h->fd >= 0 ? fstat(h->fd, &st) : fstatat(live_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW)) == 0) {
    struct node *n = lookup_ino(st.st_ino);
    if (n) {
      n->uid = st.st_uid;
      n->gid = st.st_gid;
    }
  }
  return 0;
}

static void shrunk(struct node *n, uint64_t size) {
  if (n && size < n->floor) {
    n->floor = size;
  }
}

static int cutfs_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
  struct handle *h = handle_of(fi);
  if (h == &control_handle || (path && !strcmp(path, CONTROL))) {
    return 0;
  }
  if (stale(h)) {
    return -EIO;
  }
  int fd = h && h->fd >= 0 ? h->fd : openat(live_fd, rel(path), O_WRONLY);
  if (fd < 0) {
    return -errno;
  }
  struct stat st;
  int rc = 0;
  if (fstat(fd, &st) < 0 || ftruncate(fd, size) < 0) {
    rc = -errno;
  } else {
    shrunk(node_of(&st, live_fd, NULL), (uint64_t)size);
  }
  if (!(h && h->fd >= 0)) {
    close(fd);
  }
  return rc;
}

static int open_file(const char *path, mode_t mode, struct fuse_file_info *fi, int create) {
  if (!strcmp(path, CONTROL)) {
    fi->fh = (uint64_t)(uintptr_t)&control_handle;
    fi->direct_io = 1;
    return 0;
  }
  /* read-write whatever was asked, so a sync can read what it copies; offsets come from the kernel */
  int flags = fi->flags & ~(O_DIRECT | O_SYNC | O_DSYNC | O_APPEND);
  if ((flags & O_ACCMODE) == O_WRONLY) {
    flags = (flags & ~O_ACCMODE) | O_RDWR;
  }
  int fd = openat(live_fd, rel(path), create ? flags | O_CREAT : flags, mode);
  if (fd < 0) {
    return -errno;
  }
  if (create) {
    struct fuse_context *ctx = fuse_get_context();
    struct stat before;
    if (fstat(fd, &before) == 0 && before.st_uid == 0 && ctx->uid != 0) {
      fchown(fd, ctx->uid, ctx->gid);
    }
  }
  struct stat st;
  if (fstat(fd, &st) < 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  struct handle *h = calloc(1, sizeof *h);
  h->fd = fd;
  h->node = node_of(&st, live_fd, NULL);
  h->gen = gen;
  h->sync_writes = (fi->flags & (O_DIRECT | O_SYNC | O_DSYNC)) != 0;
  if (fi->flags & O_TRUNC) {
    shrunk(h->node, 0);
  }
  fi->fh = (uint64_t)(uintptr_t)h;
  return 0;
}

static int cutfs_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  return open_file(path, mode, fi, 1);
}

static int cutfs_open(const char *path, struct fuse_file_info *fi) {
  return open_file(path, 0, fi, 0);
}

static int cutfs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)path;
  struct handle *h = handle_of(fi);
  if (h == &control_handle) {
    return control_read(buf, size, off);
  }
  if (stale(h)) {
    return -EIO;
  }
  ssize_t n = pread(h->fd, buf, size, off);
  return n < 0 ? -errno : (int)n;
}

static int cutfs_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  struct handle *h = handle_of(fi);
  if (h == &control_handle) {
    return control_write(buf, size);
  }
  if (stale(h)) {
    return -EIO;
  }
  ssize_t n = pwrite(h->fd, buf, size, off);
  if (n < 0) {
    return -errno;
  }
  mark_dirty(h->node, (uint64_t)off, (uint64_t)n);
  if (h->sync_writes) {
    n_sync_writes++;
    int rc = sync_file(h->node, h->fd);
    if (rc) {
      return rc;
    }
    name_new_file(h->node, path);
  }
  return (int)n;
}

static int cutfs_statfs(const char *path, struct statvfs *st) {
  (void)path;
  return fstatvfs(live_fd, st) < 0 ? -errno : 0;
}

static int cutfs_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  struct handle *h = handle_of(fi);
  if (h && h != &control_handle) {
    close(h->fd);
    free(h);
  }
  return 0;
}

static int cutfs_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)datasync; /* fdatasync keeps the size too, which is all the metadata this file system keeps */
  struct handle *h = handle_of(fi);
  if (h == &control_handle) {
    return 0;
  }
  if (stale(h)) {
    return -EIO;
  }
  n_fsync++;
  int rc = sync_file(h->node, h->fd);
  if (rc == 0) {
    name_new_file(h->node, path);
  }
  return rc;
}

static int cutfs_opendir(const char *path, struct fuse_file_info *fi) {
  int fd = openat(live_fd, rel(path), O_RDONLY | O_DIRECTORY);
  if (fd < 0) {
    return -errno;
  }
  struct handle *h = calloc(1, sizeof *h);
  h->fd = -1;
  h->gen = gen;
  h->dir = fdopendir(fd);
  if (!h->dir) {
    int e = errno;
    close(fd);
    free(h);
    return -e;
  }
  fi->fh = (uint64_t)(uintptr_t)h;
  return 0;
}

static int cutfs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                         enum fuse_readdir_flags flags) {
  (void)path;
  (void)off;
  (void)flags;
  struct handle *h = handle_of(fi);
  if (stale(h)) {
    return -EIO;
  }
  rewinddir(h->dir);
  for (struct dirent *e; (e = readdir(h->dir)) != NULL;) {
    struct stat st = {0};
    st.st_ino = e->d_ino;
    st.st_mode = (mode_t)(DTTOIF(e->d_type));
    if (fill(buf, e->d_name, &st, 0, 0)) {
      break;
    }
  }
  return 0;
}

static int cutfs_releasedir(const char *path, struct fuse_file_info *fi) {
  (void)path;
  struct handle *h = handle_of(fi);
  if (h) {
    closedir(h->dir);
    free(h);
  }
  return 0;
}

static int cutfs_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)datasync;
  struct handle *h = handle_of(fi);
  if (stale(h)) {
    return -EIO;
  }
  int at = h && h->dir ? dirfd(h->dir) : live_fd;
  const char *name = h && h->dir ? "." : rel(path);
  struct stat st;
  if (fstatat(at, name, &st, 0) < 0) {
    return -errno;
  }
  n_fsyncdir++;
  struct node *dn = node_of(&st, live_fd, NULL);
  int rc = sync_dir(dn, at, name);
  if (rc == 0) {
    name_new_file(dn, path);
  }
  return rc;
}

static int cutfs_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
  struct handle *h = handle_of(fi);
  if (h == &control_handle || (path && !strcmp(path, CONTROL))) {
    return 0;
  }
  int rc = h && h->fd >= 0 ? futimens(h->fd, tv) : utimensat(live_fd, rel(path), tv, AT_SYMLINK_NOFOLLOW);
  return rc < 0 ? -errno : 0;
}

static int cutfs_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi) {
  (void)path;
  struct handle *h = handle_of(fi);
  if (!h || h == &control_handle) {
    return -EOPNOTSUPP;
  }
  if (stale(h)) {
    return -EIO;
  }
  if (fallocate(h->fd, mode, off, len) < 0) {
    return -errno;
  }
  if (mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE | FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_INSERT_RANGE)) {
    struct stat st;
    fstat(h->fd, &st);
    /* content moved or zeroed: from off on, everything is to be copied at the next sync */
    if (mode & (FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_INSERT_RANGE)) {
      mark_dirty(h->node, (uint64_t)off, (uint64_t)st.st_size > (uint64_t)off ? (uint64_t)st.st_size - (uint64_t)off : 0);
      shrunk(h->node, (uint64_t)off);
    } else {
      mark_dirty(h->node, (uint64_t)off, (uint64_t)len);
    }
  }
  return 0;
}

static off_t cutfs_lseek(const char *path, off_t off, int whence, struct fuse_file_info *fi) {
  (void)path;
  struct handle *h = handle_of(fi);
  if (!h || h == &control_handle || stale(h)) {
    return -EIO;
  }
  off_t r = lseek(h->fd, off, whence);
  return r < 0 ? -errno : r;
}

static const struct fuse_operations cutfs_ops = {
    .init = cutfs_init,
    .getattr = cutfs_getattr,
    .readlink = cutfs_readlink,
    .mknod = cutfs_mknod,
    .mkdir = cutfs_mkdir,
    .unlink = cutfs_unlink,
    .rmdir = cutfs_rmdir,
    .symlink = cutfs_symlink,
    .rename = cutfs_rename,
    .link = cutfs_link,
    .chmod = cutfs_chmod,
    .chown = cutfs_chown,
    .truncate = cutfs_truncate,
    .open = cutfs_open,
    .read = cutfs_read,
    .write = cutfs_write,
    .statfs = cutfs_statfs,
    .release = cutfs_release,
    .fsync = cutfs_fsync,
    .opendir = cutfs_opendir,
    .readdir = cutfs_readdir,
    .releasedir = cutfs_releasedir,
    .fsyncdir = cutfs_fsyncdir,
    .create = cutfs_create,
    .utimens = cutfs_utimens,
    .fallocate = cutfs_fallocate,
    .lseek = cutfs_lseek,
};

/* Ends the daemon (which unmounts) once the process that started it is gone. */
static void *watch_parent(void *unused) {
  (void)unused;
  for (;;) {
    if (getppid() != parent) {
      kill(getpid(), SIGTERM);
      return NULL;
    }
    usleep(200 * 1000);
  }
}

int main(int argc, char *argv[]) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s STATE_DIR MOUNTPOINT [FUSE options]\n", argv[0]);
    return 2;
  }
  state_fd = open(argv[1], O_RDONLY | O_DIRECTORY);
  if (state_fd < 0) {
    perror(argv[1]);
    return 2;
  }
  mkdirat(state_fd, "shadow", 0700);
  mkdirat(state_fd, "live.0", 0755);
  shadow_fd = openat(state_fd, "shadow", O_RDONLY | O_DIRECTORY);
  live_fd = openat(state_fd, "live.0", O_RDONLY | O_DIRECTORY);
  if (shadow_fd < 0 || live_fd < 0) {
    perror("state directory");
    return 2;
  }
  struct stat st;
  fstat(live_fd, &st);
  root = node_of(&st, live_fd, NULL);
  root->refs = 1;
  if (sync_all(".") < 0) {
    fprintf(stderr, "cannot take the initial state of %s/live.0\n", argv[1]);
    return 2;
  }
  parent = getppid();
  pthread_t watcher;
  pthread_create(&watcher, NULL, watch_parent, NULL);
  pthread_detach(watcher);
  return fuse_main(argc - 1, argv + 1, &cutfs_ops, NULL);
}
