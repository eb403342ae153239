/* call.c: calling — Python functions (argument binding with CPython's TypeError messages,
 * frames on the C stack, closures), natives, bound methods, classes (instance creation,
 * __init__), partial objects and registry ops; generators (each on its own C stack); the
 * recursion and C stack guards. */
#include "script/internal.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* ------------------------------------------------------------------ stack guard */

gboolean
sc_check_stack (FxScript *S)
{
  volatile char here = 0;
  if (S->stack_limit && (guintptr) &here < S->stack_limit)
    {
      if (S->exc.kind == FX_VALUE_NONE)
        sc_raise (S, SC_T_RECURSION_ERROR, "maximum recursion depth exceeded");
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ functions */

FxValue
sc_function_new (FxScript *S, ScCode *code, FxDict *globals, FxValue *defaults, int n_defaults,
                 FxValue *kwdefaults, ScCell **closure)
{
  ScFunction *f = g_new0 (ScFunction, 1);
  FxValue *mod = sc_dict_get_str (globals, sc_n.name);
  fx_object_init (&f->base, &sc_function_klass);
  f->code = code;
  f->unit = sc_unit_ref (code->unit);
  f->globals = fx_dict_ref (globals);
  f->defaults = defaults;
  f->n_defaults = n_defaults;
  f->kwdefaults = kwdefaults;
  f->closure = closure;
  f->n_closure = code->n_freevars;
  f->name = fx_str_ref (code->name);
  f->qualname = fx_str_ref (code->qualname);
  f->module = mod ? fx_value_copy (mod) : fx_value_none ();
  f->doc = code->docstring ? sc_str_value (code->docstring) : fx_value_none ();
  (void) S;
  return fx_value_take_object (&f->base);
}

static void
format_names (GString *out, GPtrArray *names)
{
  guint n = names->len;
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append (out, n == 2 ? " and " : i == n - 1 ? ", and " : ", ");
      g_string_append_printf (out, "'%s'", (char *) names->pdata[i]);
    }
}

static gboolean
missing_arguments (FxScript *S, ScFunction *fn, FxValue *locals, int start, int end, const char *kind)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) list = g_string_new (NULL);
  for (int i = start; i < end; i++)
    if (sc_is_unbound (&locals[i]))
      g_ptr_array_add (names, fn->code->params[i].id->data);
  format_names (list, names);
  return sc_raise (S, SC_T_TYPE_ERROR, "%s() missing %u required %s argument%s: %s",
                   fn->qualname->data, names->len, kind, names->len == 1 ? "" : "s", list->str);
}

static gboolean
bind_args (FxScript *S, ScFunction *fn, const FxValue *self, const FxValue *args, int nargs,
           FxStr *const *kwnames, int nkw, FxValue *locals)
{
  ScCode *co = fn->code;
  int n_pos = co->n_pos, n_kwonly = co->n_kwonly, total = n_pos + n_kwonly;
  int given = nargs + (self ? 1 : 0);
  int n = MIN (given, n_pos), slot = total;
  FxDict *kwdict = NULL;

#define ARG(i) (self ? ((i) == 0 ? self : &args[(i) - 1]) : &args[i])
  for (int i = 0; i < n; i++)
    locals[i] = fx_value_copy (ARG (i));
  if (co->flags & SC_CODE_VARARGS)
    {
      FxSeq *rest = fx_seq_new (given > n_pos ? given - n_pos : 0);
      for (int i = n_pos; i < given; i++)
        rest->items[i - n_pos] = fx_value_copy (ARG (i));
      locals[slot++] = fx_value_take_tuple (rest);
    }
  if (co->flags & SC_CODE_VARKEYWORDS)
    {
      kwdict = fx_dict_new ();
      locals[slot] = fx_value_take_dict (kwdict);
    }
#undef ARG

  for (int k = 0; k < nkw; k++)
    {
      FxStr *name = kwnames[k];
      const FxValue *value = &args[nargs + k];
      int j;
      for (j = co->n_posonly; j < total; j++)
        if (co->params[j].id == name
            || (co->params[j].id->len == name->len && memcmp (co->params[j].id->data, name->data, name->len) == 0))
          break;
      if (j < total)
        {
          if (!sc_is_unbound (&locals[j]))
            return sc_raise (S, SC_T_TYPE_ERROR, "%s() got multiple values for argument '%s'",
                             fn->qualname->data, name->data);
          locals[j] = fx_value_copy (value);
          continue;
        }
      if (kwdict)
        {
          fx_dict_set (kwdict, sc_str_value (name), fx_value_copy (value));
          continue;
        }
      {
        g_autoptr (GPtrArray) posonly = g_ptr_array_new ();
        for (int p = 0; p < co->n_posonly; p++)
          for (int q = 0; q < nkw; q++)
            if (strcmp (co->params[p].id->data, kwnames[q]->data) == 0)
              g_ptr_array_add (posonly, co->params[p].id->data);
        if (posonly->len)
          {
            g_autoptr (GString) l = g_string_new (NULL);
            for (guint i = 0; i < posonly->len; i++)
              g_string_append_printf (l, "%s%s", i ? ", " : "", (char *) posonly->pdata[i]);
            return sc_raise (S, SC_T_TYPE_ERROR, "%s() got some positional-only arguments passed as "
                             "keyword arguments: '%s'", fn->qualname->data, l->str);
          }
      }
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() got an unexpected keyword argument '%s'",
                       fn->qualname->data, name->data);
    }

  if (given > n_pos && !(co->flags & SC_CODE_VARARGS))
    {
      int kwonly_given = 0;
      g_autofree char *sig = NULL;
      g_autofree char *kwsig = NULL;
      gboolean plural;
      for (int i = n_pos; i < total; i++)
        if (!sc_is_unbound (&locals[i]))
          kwonly_given++;
      if (fn->n_defaults)
        {
          plural = TRUE;
          sig = g_strdup_printf ("from %d to %d", n_pos - fn->n_defaults, n_pos);
        }
      else
        {
          plural = n_pos != 1;
          sig = g_strdup_printf ("%d", n_pos);
        }
      kwsig = kwonly_given ? g_strdup_printf (" positional argument%s (and %d keyword-only argument%s)",
                                              given != 1 ? "s" : "", kwonly_given,
                                              kwonly_given != 1 ? "s" : "")
                           : g_strdup ("");
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes %s positional argument%s but %d%s %s given",
                       fn->qualname->data, sig, plural ? "s" : "", given, kwsig,
                       given == 1 && !kwonly_given ? "was" : "were");
    }
  if (given < n_pos)
    {
      int m = n_pos - fn->n_defaults;
      for (int i = given; i < m; i++)
        if (sc_is_unbound (&locals[i]))
          return missing_arguments (S, fn, locals, 0, m, "positional");
      for (int i = MAX (given, m); i < n_pos; i++)
        if (sc_is_unbound (&locals[i]))
          locals[i] = fx_value_copy (&fn->defaults[i - m]);
    }
  if (n_kwonly)
    {
      gboolean missing = FALSE;
      for (int i = n_pos; i < total; i++)
        {
          if (!sc_is_unbound (&locals[i]))
            continue;
          if (fn->kwdefaults && !sc_is_unbound (&fn->kwdefaults[i - n_pos]))
            locals[i] = fx_value_copy (&fn->kwdefaults[i - n_pos]);
          else
            missing = TRUE;
        }
      if (missing)
        return missing_arguments (S, fn, locals, n_pos, total, "keyword-only");
    }
  return TRUE;
}

/* ------------------------------------------------------------------ generators */

/* A generator function's body runs on a C stack of its own (ucontext): next(), send() and
 * throw() switch to it, each yield switches back. Stacks (guard page below) come from a
 * small pool. Generator expressions and native generators stay eager: their values are
 * collected first and handed out by sc_generator_next. */

#if defined(__SANITIZE_ADDRESS__)
#define GEN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GEN_ASAN 1
#endif
#endif

#ifdef GEN_ASAN
void __sanitizer_start_switch_fiber (void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber (void *fake_stack_save, const void **bottom_old, size_t *size_old);
void __asan_unpoison_memory_region (void const volatile *addr, size_t size);
#define GEN_STACK_SIZE ((size_t) 16 * 1024 * 1024)
#else
/* as deep as a main thread's stack: address space only, pages are used as touched */
#define GEN_STACK_SIZE ((size_t) 8 * 1024 * 1024)
#endif
#define GEN_STACK_MARGIN ((size_t) 256 * 1024)  /* below stack_limit: room for natives */
#define GEN_POOL_MAX 16

static GMutex gen_pool_lock;
static char *gen_pool[GEN_POOL_MAX];
static int gen_pool_n;

static size_t
gen_page_size (void)
{
  static size_t page;
  if (page == 0)
    {
      long p = sysconf (_SC_PAGESIZE);
      page = p > 0 ? (size_t) p : 4096;
    }
  return page;
}

/* The usable low end of a GEN_STACK_SIZE stack, or NULL. */
static char *
gen_stack_get (void)
{
  char *stack = NULL, *base;
  size_t page = gen_page_size ();
  g_mutex_lock (&gen_pool_lock);
  if (gen_pool_n > 0)
    stack = gen_pool[--gen_pool_n];
  g_mutex_unlock (&gen_pool_lock);
  if (stack == NULL)
    {
      base = mmap (NULL, GEN_STACK_SIZE + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        return NULL;
      if (mprotect (base, page, PROT_NONE) != 0)
        {
          munmap (base, GEN_STACK_SIZE + page);
          return NULL;
        }
      stack = base + page;
    }
#ifdef GEN_ASAN
  /* frames of an earlier user of this memory (pooled, or unmapped and mapped again) leave
   * their redzones in the shadow */
  __asan_unpoison_memory_region (stack, GEN_STACK_SIZE);
#endif
  return stack;
}

static void
gen_stack_put (char *stack)
{
  g_mutex_lock (&gen_pool_lock);
  if (gen_pool_n < GEN_POOL_MAX)
    {
      gen_pool[gen_pool_n++] = stack;
      stack = NULL;
    }
  g_mutex_unlock (&gen_pool_lock);
  if (stack)
    munmap (stack - gen_page_size (), GEN_STACK_SIZE + gen_page_size ());
}

/* Context switches: a few lines of assembly on x86-64 (no signal-mask system calls, and
 * ASan's fiber annotations work without its makecontext warning), ucontext elsewhere. */
#if defined(__x86_64__) && defined(__ELF__) && !defined(FX_GEN_UCONTEXT)
#define GEN_ASM_SWITCH 1
typedef struct { void *sp; } GenCtx;
void fx_sc_gen_switch (void **save_sp, void *new_sp);   /* below, in assembly */
void fx_sc_gen_start (void);
__asm__ (
  ".text\n"
  ".p2align 4\n"
  ".globl fx_sc_gen_switch\n"
  ".hidden fx_sc_gen_switch\n"
  ".type fx_sc_gen_switch, @function\n"
  "fx_sc_gen_switch:\n"            /* rdi: where to save this side's sp; rsi: the other sp */
  "  pushq %rbp\n"
  "  pushq %rbx\n"
  "  pushq %r12\n"
  "  pushq %r13\n"
  "  pushq %r14\n"
  "  pushq %r15\n"
  "  subq $16, %rsp\n"
  "  stmxcsr 8(%rsp)\n"
  "  fnstcw (%rsp)\n"
  "  movq %rsp, (%rdi)\n"
  "  movq %rsi, %rsp\n"
  "  fldcw (%rsp)\n"
  "  ldmxcsr 8(%rsp)\n"
  "  addq $16, %rsp\n"
  "  popq %r15\n"
  "  popq %r14\n"
  "  popq %r13\n"
  "  popq %r12\n"
  "  popq %rbx\n"
  "  popq %rbp\n"
  "  ret\n"
  ".size fx_sc_gen_switch, .-fx_sc_gen_switch\n"
  ".p2align 4\n"
  ".globl fx_sc_gen_start\n"
  ".hidden fx_sc_gen_start\n"
  ".type fx_sc_gen_start, @function\n"
  "fx_sc_gen_start:\n"             /* first switch to a new stack: call r13 (r12) */
  "  movq %r12, %rdi\n"
  "  callq *%r13\n"
  "  ud2\n"
  ".size fx_sc_gen_start, .-fx_sc_gen_start\n"
  ".text\n");

static void
ctx_make (GenCtx *c, char *stack, size_t size, void (*entry) (gpointer), gpointer arg)
{
  guintptr top = ((guintptr) stack + size) & ~(guintptr) 15;
  guint64 *sp = (guint64 *) (top - 72);
  sp[0] = 0x037f;                         /* x87 control word */
  sp[1] = 0x1f80;                         /* mxcsr */
  sp[2] = 0;                              /* r15 */
  sp[3] = 0;                              /* r14 */
  sp[4] = (guint64) (guintptr) entry;     /* r13 */
  sp[5] = (guint64) (guintptr) arg;       /* r12 */
  sp[6] = 0;                              /* rbx */
  sp[7] = 0;                              /* rbp */
  sp[8] = (guint64) (guintptr) fx_sc_gen_start;
  c->sp = sp;
}

static inline void
ctx_switch (GenCtx *from, GenCtx *to)
{
  fx_sc_gen_switch (&from->sp, to->sp);
}
#else
typedef struct { ucontext_t uc; } GenCtx;

static void (*ctx_entry) (gpointer);

static void
ctx_trampoline (unsigned int lo, unsigned int hi)
{
  ctx_entry ((gpointer) (((guintptr) hi << 16 << 16) | (guintptr) lo));
  abort ();
}

static void
ctx_make (GenCtx *c, char *stack, size_t size, void (*entry) (gpointer), gpointer arg)
{
  ctx_entry = entry;
  getcontext (&c->uc);
  c->uc.uc_stack.ss_sp = stack;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = NULL;
  makecontext (&c->uc, (void (*) (void)) ctx_trampoline, 2,
               (unsigned int) ((guintptr) arg & 0xffffffffu),
               (unsigned int) ((guintptr) arg >> 16 >> 16));
}

static inline void
ctx_switch (GenCtx *from, GenCtx *to)
{
  swapcontext (&from->uc, &to->uc);
}
#endif

typedef enum { GEN_CREATED, GEN_SUSPENDED, GEN_RUNNING, GEN_DONE } ScGenStatus;

typedef struct _ScGen ScGen;
struct _ScGen {
  FxScript *S;
  gconstpointer self;            /* the generator object, for messages */
  ScFunction *fn;
  FxValue *locals;
  ScCell **cells;
  ScFrame frame;
  ScGenStatus status;
  char *stack;
  GenCtx ctx, caller;
  FxValue sent;                  /* the value of the yield expression at the next resumption */
  FxValue yielded, retval;
  int outcome;                   /* at a switch back: 1 yielded, 0 returned, -1 raised */
  gboolean throwing;             /* resumed with S->exc set: the yield raises it */
  gboolean dying;                /* being finalized: yields raise instead of suspending */
  FxValue yf;                    /* the iterator a yield from delegates to, or None */
  FxValue handling;              /* the generator's S->handling while suspended */
  /* the resumer's interpreter state, restored at each switch back */
  ScFrame *caller_frame;
  int caller_depth;
  guintptr caller_limit;
  FxValue caller_handling;
  ScGen *outer;                  /* the generator that was running when this one resumed */
  ScGen *prev_live, *next_live;  /* all generator states of this thread */
#ifdef GEN_ASAN
  void *fake_stack;
  const void *caller_bottom;
  size_t caller_size;
#endif
};

static __thread ScGen *running_gen;
static __thread ScGen *live_gens;
static __thread FxScript *tearing_down;   /* its generators no longer run */

static int lazy_generator_next (FxScript *S, ScIterObj *it, FxValue *out);

static ScGen *
gen_of (const FxValue *v)
{
  ScIterObj *it;
  if (v->kind != FX_VALUE_OBJECT || v->obj->klass != &sc_iterobj_klass)
    return NULL;
  it = (ScIterObj *) v->obj;
  return it->next == lazy_generator_next ? it->gen : NULL;
}

/* Drops the frame's locals and the stack once the body finished (or never started). */
static void
gen_release (ScGen *g)
{
  ScCode *co = g->fn->code;
  g->status = GEN_DONE;
  if (g->stack)
    {
      gen_stack_put (g->stack);
      g->stack = NULL;
    }
  if (g->locals)
    {
      for (int i = 0; i < co->n_locals; i++)
        fx_value_clear (&g->locals[i]);
      g_free (g->locals);
      g->locals = NULL;
    }
  if (g->cells)
    {
      for (int i = 0; i < co->n_cellvars + co->n_freevars; i++)
        if (g->cells[i])
          fx_object_unref (&g->cells[i]->base);
      g_free (g->cells);
      g->cells = NULL;
    }
  fx_value_clear (&g->handling);
  fx_value_clear (&g->yf);
}

static void
gen_entry (gpointer data)
{
  ScGen *g = data;
  FxScript *S = g->S;
  FxValue ret;
#ifdef GEN_ASAN
  __sanitizer_finish_switch_fiber (NULL, &g->caller_bottom, &g->caller_size);
#endif
  if (sc_exec_frame (S, &g->frame, &ret))
    {
      g->retval = ret;
      g->outcome = 0;
    }
  else
    {
      if (sc_matches (S, SC_T_STOP_ITERATION))
        {
          /* PEP 479 */
          FxValue stop = sc_take_exc (S);
          ScExcData *d;
          sc_raise (S, SC_T_RUNTIME_ERROR, "generator raised StopIteration");
          if ((d = sc_exc_data (&S->exc)))
            {
              fx_value_clear (&d->cause);
              d->cause = fx_value_copy (&stop);
              fx_value_clear (&d->context);
              d->context = stop;
              d->suppress_context = TRUE;
            }
          else
            fx_value_clear (&stop);
        }
      g->outcome = -1;
    }
  g->status = GEN_DONE;
#ifdef GEN_ASAN
  __sanitizer_start_switch_fiber (NULL, g->caller_bottom, g->caller_size);
#endif
  ctx_switch (&g->ctx, &g->caller);
  abort ();                      /* not reached */
}

/* Switches from the generator's stack back to its resumer and returns when resumed. */
static void
gen_suspend (ScGen *g)
{
#ifdef GEN_ASAN
  __sanitizer_start_switch_fiber (&g->fake_stack, g->caller_bottom, g->caller_size);
#endif
  ctx_switch (&g->ctx, &g->caller);
#ifdef GEN_ASAN
  __sanitizer_finish_switch_fiber (g->fake_stack, &g->caller_bottom, &g->caller_size);
#endif
}

static gboolean
same_value (const FxValue *a, const FxValue *b)
{
  return a->kind == b->kind && (a->kind != FX_VALUE_OBJECT || a->obj == b->obj);
}

/* Runs g until its next yield, return or exception. send: the value of the pending yield
 * expression (owned); throwing: S->exc holds an exception the yield raises instead.
 * Returns 1 (*out: the yielded value), 0 (*out: the return value) or -1. */
static int
gen_resume (FxScript *S, ScGen *g, FxValue send, gboolean throwing, FxValue *out)
{
#ifdef GEN_ASAN
  void *fake = NULL;
#endif
  int r;
  if (g->status == GEN_RUNNING)
    {
      fx_value_clear (&send);
      sc_raise (S, SC_T_VALUE_ERROR, "generator already executing");
      return -1;
    }
  if (g->status == GEN_DONE)
    {
      fx_value_clear (&send);
      if (throwing)
        return -1;
      *out = fx_value_none ();
      return 0;
    }
  if (g->status == GEN_CREATED)
    {
      if (throwing)
        {
          fx_value_clear (&send);
          gen_release (g);
          return -1;
        }
      if (send.kind != FX_VALUE_NONE)
        {
          fx_value_clear (&send);
          sc_raise (S, SC_T_TYPE_ERROR, "can't send non-None value to a just-started generator");
          return -1;
        }
      g->stack = gen_stack_get ();
      if (g->stack == NULL)
        {
          sc_raise (S, SC_T_MEMORY_ERROR, "cannot allocate a stack for the generator");
          return -1;
        }
      ctx_make (&g->ctx, g->stack, GEN_STACK_SIZE, gen_entry, g);
    }

  g->sent = send;
  g->throwing = throwing;
  g->caller_frame = S->frame;
  g->caller_depth = S->depth;
  g->caller_limit = S->stack_limit;
  g->caller_handling = S->handling;
  if (g->status == GEN_SUSPENDED)
    {
      g->frame.back = S->frame;
      S->frame = &g->frame;
      S->depth++;
    }
  if (g->handling.kind != FX_VALUE_NONE)
    {
      S->handling = g->handling;
      g->handling = fx_value_none ();
    }
  else
    S->handling = fx_value_copy (&g->caller_handling);
  S->stack_limit = (guintptr) g->stack + GEN_STACK_MARGIN;
  g->status = GEN_RUNNING;
  g->outer = running_gen;
  running_gen = g;

#ifdef GEN_ASAN
  __sanitizer_start_switch_fiber (&fake, g->stack, GEN_STACK_SIZE);
#endif
  ctx_switch (&g->caller, &g->ctx);
#ifdef GEN_ASAN
  __sanitizer_finish_switch_fiber (fake, NULL, NULL);
#endif

  running_gen = g->outer;
  g->outer = NULL;
  if (g->status != GEN_DONE && !same_value (&S->handling, &g->caller_handling))
    g->handling = S->handling;
  else
    fx_value_clear (&S->handling);
  S->handling = g->caller_handling;
  g->caller_handling = fx_value_none ();
  S->frame = g->caller_frame;
  S->depth = g->caller_depth;
  S->stack_limit = g->caller_limit;
  fx_value_clear (&g->sent);
  g->throwing = FALSE;

  r = g->outcome;
  if (r == 1)
    {
      g->status = GEN_SUSPENDED;
      *out = g->yielded;
      g->yielded = fx_value_none ();
      return 1;
    }
  gen_release (g);
  if (r == 0)
    {
      *out = g->retval;
      g->retval = fx_value_none ();
    }
  return r;
}

static gboolean
raise_generator_exit (FxScript *S)
{
  return sc_raise_args (S, SC_T_GENERATOR_EXIT, fx_value_take_tuple (fx_seq_new (0)));
}

/* g.close(): raises GeneratorExit at the suspended yield; FALSE with an exception when the
 * generator yields again or raises something else. */
static gboolean
gen_close (FxScript *S, ScGen *g)
{
  FxValue x;
  int r;
  if (g->status == GEN_CREATED)
    {
      gen_release (g);
      return TRUE;
    }
  if (g->status == GEN_RUNNING)
    return sc_raise (S, SC_T_VALUE_ERROR, "generator already executing");
  if (g->status != GEN_SUSPENDED)
    return TRUE;
  raise_generator_exit (S);
  r = gen_resume (S, g, fx_value_none (), TRUE, &x);
  if (r >= 0)
    fx_value_clear (&x);
  if (r == 1)
    return sc_raise (S, SC_T_RUNTIME_ERROR, "generator ignored GeneratorExit");
  if (r == 0)
    return TRUE;
  if (sc_matches (S, SC_T_GENERATOR_EXIT) || sc_matches (S, SC_T_STOP_ITERATION))
    {
      sc_clear_exc (S);
      return TRUE;
    }
  return FALSE;
}

/* The interpreter can still run Python code (not torn down). */
static gboolean
can_run (FxScript *S)
{
  return S != tearing_down && S->builtins && S->types[SC_T_GENERATOR_EXIT]
         && S->types[SC_T_RUNTIME_ERROR];
}

/* Closes g when its owner drops it unfinished, reporting an exception as CPython does. */
static void
gen_finalize_close (FxScript *S, ScGen *g)
{
  FxValue saved = sc_take_exc (S);
  g->dying = TRUE;
  if (!gen_close (S, g) && S->exc.kind != FX_VALUE_NONE)
    {
      FxValue exc = sc_take_exc (S);
      GString *msg = g_string_new (NULL);
      g_string_printf (msg, "Exception ignored in: <generator object %s at %p>\n",
                       g->fn->qualname->data, g->self);
      sc_format_exception (S, &exc, msg);
      fx_script_write_stderr (S, msg->str, (gssize) msg->len);
      g_string_free (msg, TRUE);
      fx_value_clear (&exc);
    }
  sc_clear_exc (S);
  S->exc = saved;
}

void
sc_generators_teardown (FxScript *S, gboolean begin)
{
  GPtrArray *open;
  if (!begin)
    {
      if (tearing_down == S)
        tearing_down = NULL;
      return;
    }
  /* run the finally blocks of the suspended generators while the interpreter is whole */
  open = g_ptr_array_new ();
  for (ScGen *g = live_gens; g; g = g->next_live)
    if (g->S == S && g->status == GEN_SUSPENDED)
      g_ptr_array_add (open, fx_object_ref ((FxObject *) g->self));
  for (guint i = 0; i < open->len; i++)
    {
      ScIterObj *it = open->pdata[i];
      ScGen *g = it->gen;
      if (g->status == GEN_SUSPENDED)
        gen_finalize_close (S, g);
    }
  for (guint i = 0; i < open->len; i++)
    fx_object_unref (open->pdata[i]);
  g_ptr_array_free (open, TRUE);
  tearing_down = S;
}

static void
gen_state_free (gpointer p)
{
  ScGen *g = p;
  FxScript *S = g->S;
  if (g->status == GEN_RUNNING)
    return;                      /* cannot happen: whoever resumed it holds a reference */
  /* unwind the body so that its finally blocks run and its stack drops its references */
  if (g->status == GEN_SUSPENDED && can_run (S))
    gen_finalize_close (S, g);
  if (g->status == GEN_SUSPENDED)
    {
      /* cannot unwind any more: the stack's references are lost, the memory is not */
      g->status = GEN_DONE;
      munmap (g->stack - gen_page_size (), GEN_STACK_SIZE + gen_page_size ());
      g->stack = NULL;
    }
  gen_release (g);
  fx_value_clear (&g->sent);
  fx_value_clear (&g->yielded);
  fx_value_clear (&g->retval);
  fx_object_unref (&g->fn->base);
  if (g->prev_live)
    g->prev_live->next_live = g->next_live;
  else
    live_gens = g->next_live;
  if (g->next_live)
    g->next_live->prev_live = g->prev_live;
  g_free (g);
}

static int
lazy_generator_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  int r = gen_resume (S, it->gen, fx_value_none (), FALSE, out);
  if (r == 0)
    fx_value_clear (out);
  return r;
}

/* Eager generators (generator expressions, native helpers): hand out the collected values. */
int
sc_generator_next (FxScript *S, ScIterObj *it, FxValue *out)
{
  (void) S;
  if (it->values && it->pos < it->values->len)
    {
      *out = fx_value_copy (&it->values->items[it->pos++]);
      return 1;
    }
  return 0;
}

static FxValue
make_generator (FxScript *S, ScFunction *fn, FxValue *locals, ScCell **cells)
{
  ScCode *co = fn->code;
  FxValue v = sc_iterobj_new (S, SC_T_GENERATOR, lazy_generator_next);
  ScIterObj *it = (ScIterObj *) v.obj;
  ScGen *g = g_new0 (ScGen, 1);
  int ncells = co->n_cellvars + co->n_freevars;
  g->S = S;
  g->self = it;
  g->fn = (ScFunction *) fx_object_ref (&fn->base);
  g->locals = g_new (FxValue, MAX (co->n_locals, 1));
  memcpy (g->locals, locals, sizeof (FxValue) * co->n_locals);
  g->cells = g_new0 (ScCell *, MAX (ncells, 1));
  memcpy (g->cells, cells, sizeof (ScCell *) * ncells);
  g->frame.code = co;
  g->frame.func = fn;
  g->frame.locals = g->locals;
  g->frame.cells = g->cells;
  g->frame.globals = fn->globals;
  g->frame.retval = fx_value_none ();
  g->sent = g->yielded = g->retval = fx_value_none ();
  g->yf = g->handling = g->caller_handling = fx_value_none ();
  g->status = GEN_CREATED;
  g->next_live = live_gens;
  if (live_gens)
    live_gens->prev_live = g;
  live_gens = g;
  it->gen = g;
  it->gen_free = gen_state_free;
  it->name = fx_str_ref (fn->qualname);
  return v;
}

/* The generator whose frame F is, when it runs lazily; NULL otherwise. */
static ScGen *
lazy_frame (FxScript *S, ScFrame *F)
{
  ScGen *g = running_gen;
  return g && g->S == S && &g->frame == F ? g : NULL;
}

gboolean
sc_generator_yield (FxScript *S, ScFrame *F, FxValue value, FxValue *out)
{
  ScGen *g = lazy_frame (S, F);
  *out = fx_value_none ();
  if (g == NULL)
    {
      if (F->yields)
        fx_seq_append (F->yields, value);
      else
        fx_value_clear (&value);
      return TRUE;
    }
  if (g->dying)
    {
      fx_value_clear (&value);
      return sc_raise (S, SC_T_RUNTIME_ERROR, "generator ignored GeneratorExit");
    }
  g->yielded = value;
  g->outcome = 1;
  gen_suspend (g);
  if (g->throwing)
    {
      g->throwing = FALSE;
      return FALSE;
    }
  *out = g->sent;
  g->sent = fx_value_none ();
  return TRUE;
}

gboolean
sc_generator_yield_from (FxScript *S, ScFrame *F, FxValue iterable, FxValue *out)
{
  ScGen *g = lazy_frame (S, F), *sub;
  FxValue send = fx_value_none ();
  gboolean throwing = FALSE, ok;

  *out = fx_value_none ();
  if (g == NULL)
    {
      FxSeq *items;
      ok = sc_collect (S, &iterable, &items);
      fx_value_clear (&iterable);
      if (!ok)
        return FALSE;
      for (guint i = 0; F->yields && i < items->len; i++)
        fx_seq_append (F->yields, fx_value_copy (&items->items[i]));
      fx_seq_unref (items);
      return TRUE;
    }
  fx_value_clear (&g->yf);
  ok = sc_get_iter (S, &iterable, &g->yf);
  fx_value_clear (&iterable);
  if (!ok)
    return FALSE;
  sub = gen_of (&g->yf);
  for (;;)
    {
      FxValue x;
      int r;
      if (sub)
        r = gen_resume (S, sub, send, throwing, &x);
      else if (throwing)
        r = -1;
      else
        {
          fx_value_clear (&send);
          r = sc_next (S, &g->yf, &x);
          if (r == 0)
            x = fx_value_none ();
        }
      send = fx_value_none ();
      throwing = FALSE;
      if (r == 0)
        {
          *out = x;
          ok = TRUE;
          break;
        }
      if (r < 0)
        {
          ok = FALSE;
          break;
        }
      if (g->dying)
        {
          fx_value_clear (&x);
          if (sub)
            {
              sub->dying = TRUE;
              if (!gen_close (S, sub))
                sc_clear_exc (S);
            }
          ok = sc_raise (S, SC_T_RUNTIME_ERROR, "generator ignored GeneratorExit");
          break;
        }
      g->yielded = x;
      g->outcome = 1;
      gen_suspend (g);
      if (g->throwing)
        {
          g->throwing = FALSE;
          if (sub && !sc_matches (S, SC_T_GENERATOR_EXIT))
            {
              throwing = TRUE;
              continue;
            }
          if (sub)
            {
              /* close the delegate first, then raise GeneratorExit here */
              FxValue e = sc_take_exc (S);
              if (gen_close (S, sub))
                sc_raise_instance (S, e, FALSE);
              else
                fx_value_clear (&e);
            }
          ok = FALSE;
          break;
        }
      send = g->sent;
      g->sent = fx_value_none ();
    }
  fx_value_clear (&g->yf);
  return ok;
}

/* ---- the generator type's methods */

static ScGen *
self_gen (FxScript *S, const FxValue *args, int n, const char *name, ScIterObj **it_out)
{
  ScIterObj *it;
  if (n < 1 || args[0].kind != FX_VALUE_OBJECT || args[0].obj->klass != &sc_iterobj_klass
      || ((ScIterObj *) args[0].obj)->type_id != SC_T_GENERATOR)
    {
      sc_raise (S, SC_T_TYPE_ERROR, "descriptor '%s' for 'generator' objects doesn't apply to a '%s' object",
                name, n < 1 ? "NoneType" : sc_type_name (S, &args[0]));
      *it_out = NULL;
      return NULL;
    }
  it = (ScIterObj *) args[0].obj;
  *it_out = it;
  return it->next == lazy_generator_next ? it->gen : NULL;
}

static gboolean
raise_stop_iteration (FxScript *S, FxValue value)
{
  FxSeq *args = fx_seq_new (value.kind == FX_VALUE_NONE ? 0 : 1);
  if (args->len)
    args->items[0] = value;
  else
    fx_value_clear (&value);
  return sc_raise_args (S, SC_T_STOP_ITERATION, fx_value_take_tuple (args));
}

/* The result of resuming: the yielded value, or StopIteration(return value). */
static gboolean
resumed (FxScript *S, int r, FxValue x, FxValue *out)
{
  if (r == 1)
    {
      *out = x;
      return TRUE;
    }
  if (r == 0)
    return raise_stop_iteration (S, x);
  return FALSE;
}

static gboolean
gen_send (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScIterObj *it;
  ScGen *g = self_gen (S, args, n, "send", &it);
  FxValue x;
  int r;
  (void) data;
  if (it == NULL)
    return FALSE;
  if ((kwargs && fx_dict_len (kwargs)) || n != 2)
    return sc_raise (S, SC_T_TYPE_ERROR, "generator.send() takes exactly one argument (%d given)", n - 1);
  if (g)
    r = gen_resume (S, g, fx_value_copy (&args[1]), FALSE, &x);
  else
    {
      r = it->next (S, it, &x);
      if (r == 0)
        x = fx_value_none ();
    }
  return resumed (S, r, x, out);
}

static gboolean
gen_next_method (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScIterObj *it;
  ScGen *g = self_gen (S, args, n, "__next__", &it);
  FxValue x;
  int r;
  (void) data;
  if (it == NULL)
    return FALSE;
  if ((kwargs && fx_dict_len (kwargs)) || n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 0 arguments, got %d", n - 1);
  if (g)
    r = gen_resume (S, g, fx_value_none (), FALSE, &x);
  else
    {
      r = it->next (S, it, &x);
      if (r == 0)
        x = fx_value_none ();
    }
  return resumed (S, r, x, out);
}

static gboolean
gen_iter_method (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScIterObj *it;
  (void) data;
  self_gen (S, args, n, "__iter__", &it);
  if (it == NULL)
    return FALSE;
  if ((kwargs && fx_dict_len (kwargs)) || n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "expected 0 arguments, got %d", n - 1);
  *out = fx_value_copy (&args[0]);
  return TRUE;
}

static gboolean
gen_throw (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScIterObj *it;
  ScGen *g = self_gen (S, args, n, "throw", &it);
  FxScriptClass *cls;
  FxValue exc, x;
  int r;
  (void) data;
  if (it == NULL)
    return FALSE;
  if (kwargs && fx_dict_len (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "throw() takes no keyword arguments");
  if (n < 2 || n > 4)
    return sc_raise (S, SC_T_TYPE_ERROR, "throw expected at least 1 argument, got %d", n - 1);
  cls = sc_value_class (&args[1]);
  if (cls && sc_is_subclass (cls, S->types[SC_T_BASE_EXCEPTION]))
    {
      if (n > 2 && sc_isinstance (S, &args[2], cls))
        exc = fx_value_copy (&args[2]);
      else if (n > 2 && args[2].kind != FX_VALUE_NONE)
        {
          if (!sc_call1 (S, &args[1], &args[2], &exc))
            return FALSE;
        }
      else if (!sc_call0 (S, &args[1], &exc))
        return FALSE;
      if (!sc_isinstance_id (S, &exc, SC_T_BASE_EXCEPTION))
        {
          fx_value_clear (&exc);
          return sc_raise (S, SC_T_TYPE_ERROR, "calling %s should have returned an instance of "
                           "BaseException, not %s", cls->name->data, sc_type_name (S, &exc));
        }
    }
  else if (sc_isinstance_id (S, &args[1], SC_T_BASE_EXCEPTION))
    {
      if (n > 2 && args[2].kind != FX_VALUE_NONE)
        return sc_raise (S, SC_T_TYPE_ERROR, "instance exception may not have a separate value");
      exc = fx_value_copy (&args[1]);
    }
  else
    return sc_raise (S, SC_T_TYPE_ERROR, "exceptions must be classes or instances deriving from "
                     "BaseException, not %s", sc_type_name (S, &args[1]));
  sc_raise_instance (S, exc, FALSE);
  if (g == NULL)
    {
      /* eager generator: it stops here */
      if (it->values)
        it->pos = it->values->len;
      return FALSE;
    }
  r = gen_resume (S, g, fx_value_none (), TRUE, &x);
  return resumed (S, r, x, out);
}

static gboolean
gen_close_method (FxScript *S, const FxValue *args, int n, FxDict *kwargs, FxValue *out, gpointer data)
{
  ScIterObj *it;
  ScGen *g = self_gen (S, args, n, "close", &it);
  (void) data;
  if (it == NULL)
    return FALSE;
  if ((kwargs && fx_dict_len (kwargs)) || n != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "generator.close() takes no arguments (%d given)", n - 1);
  *out = fx_value_none ();
  if (g == NULL)
    {
      if (it->values)
        it->pos = it->values->len;
      return TRUE;
    }
  return gen_close (S, g);
}

void
sc_generator_methods_init (FxScript *S)
{
  FxDict *d = S->types[SC_T_GENERATOR]->dict;
  sc_add_native (d, "generator", "send", SC_NATIVE_METHOD, gen_send, NULL);
  sc_add_native (d, "generator", "throw", SC_NATIVE_METHOD, gen_throw, NULL);
  sc_add_native (d, "generator", "close", SC_NATIVE_METHOD, gen_close_method, NULL);
  sc_add_native (d, "generator", "__next__", SC_NATIVE_METHOD, gen_next_method, NULL);
  sc_add_native (d, "generator", "__iter__", SC_NATIVE_METHOD, gen_iter_method, NULL);
}

/* ------------------------------------------------------------------ Python calls */

/* flat: NULL, or one value per parameter in co->params order, bound as they are (the *args
 * and **kwargs slots too) instead of binding self/args/kwnames. */
static gboolean
call_function_impl (FxScript *S, ScFunction *fn, const FxValue *self, const FxValue *args,
                    int nargs, FxStr *const *kwnames, int nkw, const FxValue *flat, FxValue *out)
{
  ScCode *co = fn->code;
  int nlocals = co->n_locals, ncells = co->n_cellvars + co->n_freevars;
  FxValue local_buf[12];
  ScCell *cell_buf[6];
  FxValue *locals = nlocals <= 12 ? local_buf : g_new (FxValue, nlocals);
  ScCell **cells = ncells <= 6 ? cell_buf : g_new (ScCell *, MAX (ncells, 1));
  ScFrame F = { 0 };
  gboolean ok;

  for (int i = 0; i < nlocals; i++)
    locals[i] = sc_unbound ();
  if (flat != NULL)
    for (int i = 0; i < nargs; i++)
      locals[i] = fx_value_copy (&flat[i]);
  else if (!bind_args (S, fn, self, args, nargs, kwnames, nkw, locals))
    {
      for (int i = 0; i < nlocals; i++)
        fx_value_clear (&locals[i]);
      if (locals != local_buf)
        g_free (locals);
      if (cells != cell_buf)
        g_free (cells);
      return FALSE;
    }
  for (int i = 0; i < co->n_cellvars; i++)
    cells[i] = sc_cell_new (sc_unbound ());
  if (co->param_cells)
    {
      int np = co->n_pos + co->n_kwonly + ((co->flags & SC_CODE_VARARGS) ? 1 : 0)
               + ((co->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);
      for (int p = 0; p < np; p++)
        if (co->param_cells[p] >= 0)
          {
            cells[co->param_cells[p]]->value = locals[p];
            locals[p] = sc_unbound ();
          }
    }
  for (int i = 0; i < co->n_freevars; i++)
    cells[co->n_cellvars + i] = (ScCell *) fx_object_ref (&fn->closure[i]->base);

  if (co->flags & SC_CODE_GENERATOR)
    {
      *out = make_generator (S, fn, locals, cells);
      ok = TRUE;
    }
  else
    {
      F.code = co;
      F.func = fn;
      F.locals = locals;
      F.cells = cells;
      F.globals = fn->globals;
      ok = sc_exec_frame (S, &F, out);
      for (int i = 0; i < nlocals; i++)
        fx_value_clear (&locals[i]);
      for (int i = 0; i < ncells; i++)
        fx_object_unref (&cells[i]->base);
    }
  if (locals != local_buf)
    g_free (locals);
  if (cells != cell_buf)
    g_free (cells);
  return ok;
}

static gboolean
call_function (FxScript *S, ScFunction *fn, const FxValue *self, const FxValue *args, int nargs,
               FxStr *const *kwnames, int nkw, FxValue *out)
{
  return call_function_impl (S, fn, self, args, nargs, kwnames, nkw, NULL, out);
}

gboolean
sc_call_function_flat (FxScript *S, const FxValue *func, const FxValue *params, int n,
                       FxValue *out)
{
  ScFunction *fn;
  ScCode *co;
  int np;
  if (!sc_is_klass (func, &sc_function_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "'%s' is not a Python function", sc_type_name (S, func));
  fn = (ScFunction *) func->obj;
  co = fn->code;
  np = co->n_pos + co->n_kwonly + ((co->flags & SC_CODE_VARARGS) ? 1 : 0)
       + ((co->flags & SC_CODE_VARKEYWORDS) ? 1 : 0);
  if (n != np)
    return sc_raise (S, SC_T_TYPE_ERROR, "%s() has %d parameters, %d values given",
                     fn->qualname->data, np, n);
  return call_function_impl (S, fn, NULL, NULL, n, NULL, 0, params, out);
}

/* Module and class bodies. cells_in: the class body's free variables (or NULL). */
gboolean
sc_run_code (FxScript *S, ScCode *code, FxDict *globals, FxDict *ns, ScCell **cells_in, FxValue *out)
{
  int ncells = code->n_cellvars + code->n_freevars;
  ScCell **cells = g_new0 (ScCell *, MAX (ncells, 1));
  ScFrame F = { 0 };
  gboolean ok;

  for (int i = 0; i < code->n_cellvars; i++)
    cells[i] = sc_cell_new (sc_unbound ());
  for (int i = 0; i < code->n_freevars; i++)
    cells[code->n_cellvars + i] = (ScCell *) fx_object_ref (&cells_in[i]->base);
  F.code = code;
  F.cells = cells;
  F.globals = globals;
  F.ns = ns;
  ok = sc_exec_frame (S, &F, out);
  if (ok && code->class_cell >= 0)
    {
      /* hand the __class__ cell to the caller through the result */
      fx_value_clear (out);
      *out = fx_value_take_object (fx_object_ref (&cells[code->class_cell]->base));
    }
  for (int i = 0; i < ncells; i++)
    fx_object_unref (&cells[i]->base);
  g_free (cells);
  return ok;
}

/* ------------------------------------------------------------------ other callables */

static FxDict *
kwargs_dict (const FxValue *vals, FxStr *const *names, int n)
{
  FxDict *d;
  if (n == 0)
    return NULL;
  d = fx_dict_new ();
  for (int i = 0; i < n; i++)
    fx_dict_set (d, sc_str_value (names[i]), fx_value_copy (&vals[i]));
  return d;
}

static gboolean
call_native (FxScript *S, ScNative *n, const FxValue *args, int nargs, FxStr *const *kwnames,
             int nkw, FxValue *out)
{
  FxDict *kw = kwargs_dict (args + nargs, kwnames, nkw);
  gboolean ok;
  *out = fx_value_none ();
  ok = n->func (S, args, nargs, kw, out, n->data);
  if (kw)
    fx_dict_unref (kw);
  if (!ok && S->exc.kind == FX_VALUE_NONE)
    sc_raise (S, SC_T_SYSTEM_ERROR, "%s() returned an error without setting an exception", n->name->data);
  return ok;
}

/* ---- __torch_function__: torch functions called with objects that override them ---- */

/* The class of arg (or of an item of a list/tuple arg) that defines __torch_function__. */
static FxScriptClass *
override_in (FxScript *S, const FxValue *arg)
{
  const FxValue *items = arg;
  guint n_items = 1;
  if (arg->kind == FX_VALUE_TUPLE || arg->kind == FX_VALUE_LIST)
    {
      items = arg->seq->items;
      n_items = arg->seq->len;
    }
  for (guint j = 0; j < n_items; j++)
    {
      ScInstance *inst = sc_value_instance (&items[j]);
      if (inst != NULL && sc_type_lookup_c (S, inst->cls, "__torch_function__") != NULL)
        return inst->cls;
    }
  return NULL;
}

/* The class of the first argument (in args, kwargs, and one level of the lists and tuples
 * there, where torch.cat's tensors are) whose type defines __torch_function__, or NULL. */
static FxScriptClass *
find_torch_function_override (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs)
{
  const FxValue *k, *v;
  FxScriptClass *cls;
  for (int i = 0; i < n_args; i++)
    if ((cls = override_in (S, &args[i])) != NULL)
      return cls;
  for (guint i = 0; kwargs != NULL && fx_dict_entry (kwargs, i, &k, &v); i++)
    if ((cls = override_in (S, v)) != NULL)
      return cls;
  return NULL;
}

/* cls.__torch_function__(op, (cls,), args, kwargs), as torch does for overriding arguments. */
static gboolean
call_torch_function (FxScript *S, FxScriptClass *cls, const FxOp *op, const FxValue *args,
                     int n_args, FxDict *kwargs, FxValue *out)
{
  FxValue cls_value = sc_class_value (cls);
  FxValue call_args[4];
  FxSeq *arg_seq = fx_seq_new ((guint) n_args);
  FxSeq *types = fx_seq_new (1);
  gboolean ok;

  for (int i = 0; i < n_args; i++)
    arg_seq->items[i] = fx_value_copy (&args[i]);
  types->items[0] = fx_value_copy (&cls_value);
  call_args[0] = fx_value_op (op);
  call_args[1] = fx_value_take_tuple (types);
  call_args[2] = fx_value_take_tuple (arg_seq);
  call_args[3] = kwargs ? fx_value_take_dict (fx_dict_ref (kwargs))
                        : fx_value_take_dict (fx_dict_new ());
  ok = fx_script_call_method (S, &cls_value, "__torch_function__", call_args, 4, NULL, out);
  for (int i = 0; i < 4; i++)
    fx_value_clear (&call_args[i]);
  fx_value_clear (&cls_value);
  return ok;
}

/* Whether PyTorch's C++ argument parser reads this function's arguments (not Python code:
 * torch.nn.functional, operator, ...). */
static gboolean
parsed_in_cpp (const FxOp *op)
{
  return op->kind == FX_OP_FUNCTION && !(op->flags & FX_OP_FLAG_PYTHON_FUNCTION)
         && g_str_has_prefix (op->qualified_name, "torch.")
         && !g_str_has_prefix (op->qualified_name, "torch.nn.functional.");
}

/* PyTorch's argument parser takes a `Tensor[]` argument only as a tuple or list: an
 * overriding object there itself (torch.cat(proxy)) is a TypeError before any
 * __torch_function__ (torch.fx records nothing). Ops written in Python in PyTorch
 * (torch.nn.functional) never see the parser. */
static gboolean
check_tensor_lists (FxScript *S, const FxOp *op, const FxValue *args, int n_args)
{
  const FxOverload *o;
  if (!parsed_in_cpp (op) || op->n_overloads != 1)
    return TRUE;
  o = &op->overloads[0];
  for (int i = 0; i < n_args && i < o->n_args; i++)
    if (o->args[i].type == FX_ARG_TENSOR_LIST && !o->args[i].varargs
        && args[i].kind != FX_VALUE_TUPLE && args[i].kind != FX_VALUE_LIST
        && override_in (S, &args[i]) != NULL)
      return sc_raise (S, SC_T_TYPE_ERROR, "%s(): argument '%s' (position %d) must be tuple of "
                       "Tensors, not %s", op->name, o->args[i].name, i + 1,
                       sc_type_name (S, &args[i]));
  return TRUE;
}

/* Whether some overload of op takes a tensor (or anything) at this position or name. */
static gboolean
tensor_slot (const FxOp *op, int position, const char *name)
{
  for (int k = 0; k < op->n_overloads; k++)
    {
      const FxOverload *o = &op->overloads[k];
      int i = name ? fx_overload_param (o, name) : position < o->n_args ? position : -1;
      const FxArgSpec *a = i >= 0 ? &o->args[i] : NULL;
      if (a != NULL && (name || !a->kwarg_only)
          && (a->type == FX_ARG_TENSOR || a->type == FX_ARG_TENSOR_LIST
              || a->type == FX_ARG_ANY))
        return TRUE;
    }
  return FALSE;
}

/* PyTorch's parser looks for __torch_function__ only among the arguments it parses as
 * tensors: an overriding object in a size or a number (torch.zeros(proxy.size(0))) does not
 * parse, a TypeError, and torch.fx records nothing. */
static gboolean
override_is_dispatched (FxScript *S, const FxOp *op, const FxValue *args, int n_args,
                        FxDict *kwargs)
{
  const FxValue *k, *v;
  if (!parsed_in_cpp (op))
    return TRUE;
  for (int i = 0; i < n_args; i++)
    if (override_in (S, &args[i]) != NULL && tensor_slot (op, i, NULL))
      return TRUE;
  for (guint i = 0; kwargs != NULL && fx_dict_entry (kwargs, i, &k, &v); i++)
    if (k->kind == FX_VALUE_STR && override_in (S, v) != NULL && tensor_slot (op, -1, k->s->data))
      return TRUE;
  return FALSE;
}

gboolean
sc_op_invoke (FxScript *S, const FxOp *op, const FxValue *args, int n_args, FxDict *kwargs,
              FxValue *out)
{
  GError *error = NULL;
  FxScriptClass *cls = find_torch_function_override (S, args, n_args, kwargs);
  if (cls != NULL && override_is_dispatched (S, op, args, n_args, kwargs))
    return check_tensor_lists (S, op, args, n_args)
           && call_torch_function (S, cls, op, args, n_args, kwargs, out);
  if (S->op_call)
    return S->op_call (S, op, args, n_args, kwargs, out, S->op_call_data);
  if (fx_op_call (op, args, n_args, kwargs, out, &error))
    return TRUE;
  sc_raise_gerror (S, error);
  g_error_free (error);
  return FALSE;
}

static gboolean
call_op (FxScript *S, const FxOp *op, const FxValue *args, int nargs, FxStr *const *kwnames,
         int nkw, FxValue *out)
{
  FxDict *kw = kwargs_dict (args + nargs, kwnames, nkw);
  gboolean ok, handled;
  /* operator.add(a, b) & co. on non-tensors: Python's own dispatch (__add__, ...) */
  ok = sc_operator_call (S, op, args, nargs, kw, out, &handled);
  if (handled)
    {
      if (kw)
        fx_dict_unref (kw);
      return ok;
    }
  ok = sc_op_invoke (S, op, args, nargs, kw, out);
  if (kw)
    fx_dict_unref (kw);
  if (!ok && S->exc.kind == FX_VALUE_NONE)
    sc_raise (S, SC_T_SYSTEM_ERROR, "%s failed without an exception", op->qualified_name);
  return ok;
}

static gboolean
call_with_self (FxScript *S, const FxValue *func, const FxValue *self, const FxValue *args,
                int nargs, FxStr *const *kwnames, int nkw, FxValue *out)
{
  FxValue buf[8];
  FxValue *all;
  gboolean ok;
  if (sc_is_klass (func, &sc_function_klass))
    return call_function (S, (ScFunction *) func->obj, self, args, nargs, kwnames, nkw, out);
  all = nargs + nkw + 1 <= 8 ? buf : g_new (FxValue, nargs + nkw + 1);
  all[0] = *self;
  if (nargs + nkw)
    memcpy (all + 1, args, sizeof (FxValue) * (nargs + nkw));
  ok = sc_call (S, func, all, nargs + 1, kwnames, nkw, out);
  if (all != buf)
    g_free (all);
  return ok;
}

static gboolean
call_class (FxScript *S, FxScriptClass *cls, const FxValue *args, int nargs, FxStr *const *kwnames,
            int nkw, FxValue *out)
{
  FxValue inst, *init, *newm, r;
  if (cls->construct)
    {
      FxDict *kw = kwargs_dict (args + nargs, kwnames, nkw);
      gboolean ok;
      *out = fx_value_none ();
      ok = cls->construct (S, args, nargs, kw, out, cls);
      if (kw)
        fx_dict_unref (kw);
      return ok;
    }
  newm = sc_type_lookup (S, cls, sc_n.new);
  if (newm && newm->kind == FX_VALUE_OBJECT
      && (newm->obj->klass == &sc_function_klass || newm->obj->klass == &sc_staticmethod_klass))
    {
      FxValue c = sc_class_value (cls);
      const FxValue *f = newm->obj->klass == &sc_staticmethod_klass ? &((ScWrapper *) newm->obj)->func : newm;
      gboolean ok = call_with_self (S, f, &c, args, nargs, kwnames, nkw, &inst);
      fx_value_clear (&c);
      if (!ok)
        return FALSE;
      if (!sc_isinstance (S, &inst, cls))
        {
          *out = inst;
          return TRUE;
        }
    }
  else
    inst = sc_instance_new (S, cls);
  if (cls->flags & SC_CLASS_EXCEPTION)
    {
      ScExcData *d = sc_exc_data (&inst);
      if (d)
        {
          FxSeq *a = fx_seq_new (nargs);
          for (int i = 0; i < nargs; i++)
            a->items[i] = fx_value_copy (&args[i]);
          fx_value_clear (&d->args);
          d->args = fx_value_take_tuple (a);
        }
    }
  init = sc_type_lookup (S, cls, sc_n.init);
  if (init && !(init->kind == FX_VALUE_OBJECT && init->obj == sc_dict_get_str (S->types[SC_T_OBJECT]->dict, sc_n.init)->obj))
    {
      if (!call_with_self (S, init, &inst, args, nargs, kwnames, nkw, &r))
        {
          fx_value_clear (&inst);
          return FALSE;
        }
      if (r.kind != FX_VALUE_NONE)
        {
          const char *tn = sc_type_name (S, &r);
          fx_value_clear (&r);
          fx_value_clear (&inst);
          return sc_raise (S, SC_T_TYPE_ERROR, "__init__() should return None, not '%s'", tn);
        }
    }
  else if (nargs || nkw)
    {
      fx_value_clear (&inst);
      return sc_raise (S, SC_T_TYPE_ERROR, "%s() takes no arguments", cls->name->data);
    }
  *out = inst;
  return TRUE;
}

static gboolean
call_partial (FxScript *S, ScPartial *p, const FxValue *args, int nargs, FxStr *const *kwnames,
              int nkw, FxValue *out)
{
  int np = p->n_args, nk = p->kwargs ? (int) fx_dict_len (p->kwargs) : 0;
  FxValue *all = g_new (FxValue, np + nargs + nk + nkw + 1);
  FxStr **names = g_new (FxStr *, nk + nkw + 1);
  const FxValue *k, *v;
  int kcount = 0;
  gboolean ok;
  for (int i = 0; i < np; i++)
    all[i] = p->args[i];
  for (int i = 0; i < nargs; i++)
    all[np + i] = args[i];
  /* call-site keywords override the stored ones */
  for (guint i = 0; p->kwargs && fx_dict_entry (p->kwargs, i, &k, &v); i++)
    {
      gboolean overridden = FALSE;
      for (int j = 0; j < nkw; j++)
        if (strcmp (kwnames[j]->data, k->s->data) == 0)
          overridden = TRUE;
      if (overridden)
        continue;
      all[np + nargs + kcount] = *v;
      names[kcount++] = k->s;
    }
  for (int j = 0; j < nkw; j++)
    {
      all[np + nargs + kcount] = args[nargs + j];
      names[kcount++] = kwnames[j];
    }
  ok = sc_call (S, &p->func, all, np + nargs, names, kcount, out);
  g_free (all);
  g_free (names);
  return ok;
}

gboolean
sc_call (FxScript *S, const FxValue *callable, const FxValue *args, int nargs,
         FxStr *const *kwnames, int nkw, FxValue *out)
{
  if (callable->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = callable->obj->klass;
      if (k == &sc_function_klass)
        return call_function (S, (ScFunction *) callable->obj, NULL, args, nargs, kwnames, nkw, out);
      if (k == &sc_native_klass)
        return call_native (S, (ScNative *) callable->obj, args, nargs, kwnames, nkw, out);
      if (k == &sc_method_klass)
        {
          ScMethod *m = (ScMethod *) callable->obj;
          return call_with_self (S, &m->func, &m->self, args, nargs, kwnames, nkw, out);
        }
      if (k == &sc_class_klass)
        return call_class (S, (FxScriptClass *) callable->obj, args, nargs, kwnames, nkw, out);
      if (k == &sc_partial_klass)
        return call_partial (S, (ScPartial *) callable->obj, args, nargs, kwnames, nkw, out);
      if (k == &sc_staticmethod_klass || k == &sc_classmethod_klass)
        {
          if (k == &sc_staticmethod_klass)
            return sc_call (S, &((ScWrapper *) callable->obj)->func, args, nargs, kwnames, nkw, out);
        }
    }
  else if (callable->kind == FX_VALUE_OP && !S->kind_classes[FX_VALUE_OP])
    return call_op (S, callable->op, args, nargs, kwnames, nkw, out);
  {
    FxScriptClass *t = sc_type_of (S, callable);
    FxValue *m = (t->flags & SC_CLASS_BUILTIN) ? NULL : sc_type_lookup (S, t, sc_n.call);
    if (m)
      return call_with_self (S, m, callable, args, nargs, kwnames, nkw, out);
    if (callable->kind == FX_VALUE_OP)
      return call_op (S, callable->op, args, nargs, kwnames, nkw, out);
  }
  return sc_raise (S, SC_T_TYPE_ERROR, "'%s' object is not callable", sc_type_name (S, callable));
}

gboolean
sc_kwargs_to_vector (FxScript *S, FxDict *kwargs, FxValue **vals, FxStr ***names, int *n)
{
  const FxValue *k, *v;
  int count = kwargs ? (int) fx_dict_len (kwargs) : 0;
  *vals = g_new (FxValue, count + 1);
  *names = g_new (FxStr *, count + 1);
  *n = 0;
  for (guint i = 0; kwargs && fx_dict_entry (kwargs, i, &k, &v); i++)
    {
      if (k->kind != FX_VALUE_STR)
        {
          g_free (*vals);
          g_free (*names);
          return sc_raise (S, SC_T_TYPE_ERROR, "keywords must be strings");
        }
      (*vals)[*n] = *v;
      (*names)[*n] = k->s;
      (*n)++;
    }
  return TRUE;
}

gboolean
sc_call_dict (FxScript *S, const FxValue *callable, const FxValue *args, int nargs, FxDict *kwargs,
              FxValue *out)
{
  FxValue *kv, *all;
  FxStr **names;
  int nk;
  gboolean ok;
  if (kwargs == NULL || fx_dict_len (kwargs) == 0)
    return sc_call (S, callable, args, nargs, NULL, 0, out);
  if (!sc_kwargs_to_vector (S, kwargs, &kv, &names, &nk))
    return FALSE;
  all = g_new (FxValue, nargs + nk + 1);
  if (nargs)
    memcpy (all, args, sizeof (FxValue) * nargs);
  memcpy (all + nargs, kv, sizeof (FxValue) * nk);
  ok = sc_call (S, callable, all, nargs, names, nk, out);
  g_free (all);
  g_free (kv);
  g_free (names);
  return ok;
}

gboolean
sc_call0 (FxScript *S, const FxValue *callable, FxValue *out)
{
  return sc_call (S, callable, NULL, 0, NULL, 0, out);
}

gboolean
sc_call1 (FxScript *S, const FxValue *callable, const FxValue *a, FxValue *out)
{
  return sc_call (S, callable, a, 1, NULL, 0, out);
}

gboolean
sc_call2 (FxScript *S, const FxValue *callable, const FxValue *a, const FxValue *b, FxValue *out)
{
  FxValue args[2] = { *a, *b };
  return sc_call (S, callable, args, 2, NULL, 0, out);
}

gboolean
sc_callable (FxScript *S, const FxValue *v)
{
  if (v->kind == FX_VALUE_OP)
    return TRUE;
  if (v->kind == FX_VALUE_OBJECT)
    {
      const FxObjectClass *k = v->obj->klass;
      if (k == &sc_function_klass || k == &sc_native_klass || k == &sc_method_klass
          || k == &sc_class_klass || k == &sc_partial_klass || k == &sc_staticmethod_klass)
        return TRUE;
    }
  {
    FxScriptClass *t = sc_type_of (S, v);
    return !(t->flags & SC_CLASS_BUILTIN) && sc_type_lookup (S, t, sc_n.call) != NULL;
  }
}

/* ------------------------------------------------------------------ super() */

static gboolean
super_construct (FxScript *S, const FxValue *args, int nargs, FxDict *kwargs, FxValue *out, gpointer data)
{
  FxScriptClass *start;
  FxValue self;
  ScSuper *sp;
  FxScriptClass *self_type;

  if (kwargs && fx_dict_len (kwargs))
    return sc_raise (S, SC_T_TYPE_ERROR, "super() takes no keyword arguments");
  if (nargs == 0)
    {
      ScFrame *F = S->frame;
      ScCode *co;
      FxValue *cv;
      if (F == NULL || F->func == NULL)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): no arguments");
      co = F->code;
      if (co->class_free < 0)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): __class__ cell not found");
      if (co->self_slot < 0)
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): no arguments");
      cv = &F->cells[co->class_free]->value;
      if (sc_is_unbound (cv) || !sc_value_class (cv))
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): empty __class__ cell");
      start = sc_value_class (cv);
      self = co->self_cell >= 0 ? F->cells[co->self_cell]->value : F->locals[co->self_slot];
      if (sc_is_unbound (&self))
        return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): arg[0] deleted");
      if ((co->flags & SC_CODE_VARARGS) && co->n_pos == 0)
        {
          if (self.kind != FX_VALUE_TUPLE || self.seq->len == 0)
            return sc_raise (S, SC_T_RUNTIME_ERROR, "super(): no arguments");
          self = self.seq->items[0];
        }
    }
  else if (nargs == 2)
    {
      start = sc_value_class (&args[0]);
      if (!start)
        return sc_raise (S, SC_T_TYPE_ERROR, "super() argument 1 must be a type, not %s",
                         sc_type_name (S, &args[0]));
      self = args[1];
    }
  else
    return sc_raise (S, SC_T_TYPE_ERROR, "super() takes 0 or 2 arguments, not %d", nargs);

  if (sc_value_class (&self) && sc_is_subclass (sc_value_class (&self), start))
    self_type = sc_value_class (&self);
  else if (sc_isinstance (S, &self, start))
    self_type = sc_type_of (S, &self);
  else
    return sc_raise (S, SC_T_TYPE_ERROR, "super(type, obj): obj must be an instance or subtype of type");
  sp = g_new0 (ScSuper, 1);
  fx_object_init (&sp->base, &sc_super_klass);
  sp->start = (FxScriptClass *) fx_object_ref (&start->base);
  sp->self_type = (FxScriptClass *) fx_object_ref (&self_type->base);
  sp->self = fx_value_copy (&self);
  *out = fx_value_take_object (&sp->base);
  (void) data;
  return TRUE;
}

/* Registered by builtins.c: super's constructor needs the frames above. */
FxScriptFunc sc_super_construct_func (void);

FxScriptFunc
sc_super_construct_func (void)
{
  return super_construct;
}
