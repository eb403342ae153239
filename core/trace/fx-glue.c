/* fx-glue.c: the few things torch.fx's tracer (written in Python, core/trace/torch_fx/) needs
 * from the interpreter itself — a function's signature, the globals of wrap()'s caller, which
 * registry ops are Tensor methods — and the loader that makes the embedded torch.fx sources
 * importable. */
#include "script/internal.h"
#include "trace/trace.h"
#include "trace/tracer.h"
#include "ops/op.h"

#include <gio/gio.h>
#include <string.h>

extern GResource *fx_trace_get_resource (void);

/* signature(fn) → [(name, kind, has_default, default, annotation)], kind one of
 * 'positional', 'var_positional', 'keyword_only', 'var_keyword'. */
static gboolean
glue_signature (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer user_data)
{
  const FxValue *fv;
  ScFunction *fn;
  ScCode *co;
  FxSeq *out;

  if (n_args != 1)
    return sc_raise (S, SC_T_TYPE_ERROR, "signature() takes exactly one argument");
  fv = &args[0];
  if (sc_is_klass (fv, &sc_method_klass))
    fv = &((ScMethod *) fv->obj)->func;
  if (!sc_is_klass (fv, &sc_function_klass))
    return sc_raise (S, SC_T_TYPE_ERROR, "symbolic tracing needs a Python function, not '%s'",
                     sc_type_name (S, fv));
  fn = (ScFunction *) fv->obj;
  co = fn->code;
  out = fx_seq_new (0);

  for (int kind = 0; kind < 4; kind++)
    {
      int count;
      const char *kind_name;
      switch (kind)
        {
        case 0: count = co->n_pos; kind_name = "positional"; break;
        case 1: count = (co->flags & SC_CODE_VARARGS) ? 1 : 0; kind_name = "var_positional"; break;
        case 2: count = co->n_kwonly; kind_name = "keyword_only"; break;
        default: count = (co->flags & SC_CODE_VARKEYWORDS) ? 1 : 0; kind_name = "var_keyword"; break;
        }
      /* params: positionals, keyword-only, then *args, then **kwargs */
      for (int i = 0; i < count; i++)
        {
          int p = kind == 0 ? i : kind == 2 ? co->n_pos + i
                  : kind == 1 ? co->n_pos + co->n_kwonly
                  : co->n_pos + co->n_kwonly + ((co->flags & SC_CODE_VARARGS) ? 1 : 0);
          FxStr *name = co->params[p].id;
          FxSeq *item = fx_seq_new (5);
          gboolean has_default = FALSE;
          FxValue def = fx_value_none ();
          FxValue *annotation = NULL;

          if (kind == 0 && i >= co->n_pos - fn->n_defaults)
            {
              has_default = TRUE;
              def = fx_value_copy (&fn->defaults[i - (co->n_pos - fn->n_defaults)]);
            }
          else if (kind == 2 && fn->kwdefaults && !sc_is_unbound (&fn->kwdefaults[i]))
            {
              has_default = TRUE;
              def = fx_value_copy (&fn->kwdefaults[i]);
            }
          if (fn->annotations)
            annotation = sc_dict_get_str (fn->annotations, name);
          item->items[0] = sc_str_value (name);
          item->items[1] = fx_value_str (kind_name);
          item->items[2] = fx_value_bool (has_default);
          item->items[3] = def;
          item->items[4] = annotation ? fx_value_copy (annotation) : fx_value_none ();
          fx_seq_append (out, fx_value_take_tuple (item));
        }
    }
  *result = fx_value_take_list (out);
  return TRUE;
}

/* caller_globals() → (globals, function name) of the Python code that called the function
 * calling caller_globals() (wrap() asks who called it). */
static gboolean
glue_caller_globals (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                     FxValue *result, gpointer user_data)
{
  ScFrame *F = S->frame;
  FxSeq *pair;

  if (F == NULL || F->back == NULL)
    return sc_raise (S, SC_T_RUNTIME_ERROR, "caller_globals() needs a calling frame");
  F = F->back;
  pair = fx_seq_new (2);
  pair->items[0] = fx_value_take_dict (fx_dict_ref (F->globals));
  pair->items[1] = sc_str_value (F->code->name);
  *result = fx_value_take_tuple (pair);
  return TRUE;
}

/* is_tensor_method(f): f is a registry op that torch.fx records as call_method. */
static gboolean
glue_is_tensor_method (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs,
                       FxValue *result, gpointer user_data)
{
  *result = fx_value_bool (n_args == 1 && args[0].kind == FX_VALUE_OP
                           && args[0].op->kind == FX_OP_METHOD);
  return TRUE;
}

/* call_flat(fn, values): fn with its parameters bound one to one (see
 * sc_call_function_flat) — 1.13 rewrites the code object of a root with *args / **kwargs or
 * keyword-only parameters so that each receives one placeholder's Proxy. */
static gboolean
glue_call_flat (FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result,
                gpointer user_data)
{
  if (n_args != 2 || (args[1].kind != FX_VALUE_TUPLE && args[1].kind != FX_VALUE_LIST))
    return sc_raise (S, SC_T_TYPE_ERROR, "call_flat(fn, values) takes a function and a tuple");
  return sc_call_function_flat (S, &args[0], args[1].seq->items, (int) args[1].seq->len, result);
}

static gboolean
glue_module_init (FxScript *S, FxScriptModule *module, gpointer user_data)
{
  fx_script_module_add_function (module, "signature", glue_signature, NULL);
  fx_script_module_add_function (module, "caller_globals", glue_caller_globals, NULL);
  fx_script_module_add_function (module, "is_tensor_method", glue_is_tensor_method, NULL);
  fx_script_module_add_function (module, "call_flat", glue_call_flat, NULL);
  fx_tracer_natives_add (module);
  return TRUE;
}

/* The modules written in Python and embedded as resources: torch.fx, the bundled
 * torchvision.models and standard modules simplest in Python (contextlib). */
static const struct {
  const char *module;
  const char *resource;
} embedded_modules[] = {
  { "torch.fx", "/org/fxeditor/libfx/torch_fx/__init__.py" },
  { "torch.fx.proxy", "/org/fxeditor/libfx/torch_fx/proxy.py" },
  { "torch.fx._symbolic_trace", "/org/fxeditor/libfx/torch_fx/_symbolic_trace.py" },
  { "torch.fx._functional_args", "/org/fxeditor/libfx/torch_fx/_functional_args.py" },
  { "torch.fx.interpreter", "/org/fxeditor/libfx/torch_fx/interpreter.py" },
  { "torch.fx.subgraph_rewriter", "/org/fxeditor/libfx/torch_fx/subgraph_rewriter.py" },
  { "torch.fx.passes", "/org/fxeditor/libfx/torch_fx/passes/__init__.py" },
  { "torch.fx.passes.shape_prop", "/org/fxeditor/libfx/torch_fx/passes/shape_prop.py" },
  { "torch.fx._pytree", "/org/fxeditor/libfx/torch_fx/_pytree.py" },
  { "torch.utils._pytree", "/org/fxeditor/libfx/torch_fx/utils_pytree.py" },
  { "torch.fx._nn_forward", "/org/fxeditor/libfx/torch_fx/_nn_forward.py" },
  { "torch.fx.experimental", "/org/fxeditor/libfx/torch_fx/experimental/__init__.py" },
  { "torch.fx.experimental.optimization",
    "/org/fxeditor/libfx/torch_fx/experimental/optimization.py" },
  { "torch.fx.experimental.const_fold", "/org/fxeditor/libfx/torch_fx/experimental/const_fold.py" },
  { "contextlib", "/org/fxeditor/libfx/stdlib/contextlib.py" },
  { "torchvision", "/org/fxeditor/libfx/torchvision/__init__.py" },
  { "torchvision.models", "/org/fxeditor/libfx/torchvision/models/__init__.py" },
  { "torchvision.models.alexnet", "/org/fxeditor/libfx/torchvision/models/alexnet.py" },
  { "torchvision.models.densenet", "/org/fxeditor/libfx/torchvision/models/densenet.py" },
  { "torchvision.models.mnasnet", "/org/fxeditor/libfx/torchvision/models/mnasnet.py" },
  { "torchvision.models.mobilenetv2", "/org/fxeditor/libfx/torchvision/models/mobilenetv2.py" },
  { "torchvision.models.resnet", "/org/fxeditor/libfx/torchvision/models/resnet.py" },
  { "torchvision.models.squeezenet", "/org/fxeditor/libfx/torchvision/models/squeezenet.py" },
  { "torchvision.models.vgg", "/org/fxeditor/libfx/torchvision/models/vgg.py" },
};

static gboolean
embedded_module_init (FxScript *S, FxScriptModule *module, gpointer user_data)
{
  guint index = GPOINTER_TO_UINT (user_data);
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *filename = NULL;
  GError *error = NULL;
  gsize len;
  const char *source;

  bytes = g_resource_lookup_data (fx_trace_get_resource (), embedded_modules[index].resource,
                                  G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    {
      sc_raise (S, SC_T_IMPORT_ERROR, "cannot load %s: %s", embedded_modules[index].module,
                error->message);
      g_error_free (error);
      return FALSE;
    }
  source = g_bytes_get_data (bytes, &len);
  /* Tracebacks show where the file lives in the library's sources. */
  filename = g_strconcat ("<libfx>/", embedded_modules[index].resource
                          + strlen ("/org/fxeditor/libfx/"), NULL);
  return fx_script_run_string (S, source, filename, embedded_modules[index].module);
}

void
fx_trace_register_modules (FxScript *script)
{
  fx_script_register_module (script, "torch.fx._glue", glue_module_init, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (embedded_modules); i++)
    fx_script_register_module (script, embedded_modules[i].module, embedded_module_init,
                               GUINT_TO_POINTER (i), NULL);
}
