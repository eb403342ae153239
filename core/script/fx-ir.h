/* fx-ir.h: the script face of the FX IR (module torch.fx._ir): Graph, Node and GraphModule
 * classes wrapping FxGraph / FxNode, and the conversions the tracer glue needs between
 * script values (Node wrappers) and FxValue trees (FX_VALUE_NODE references). */
#pragma once

#include "script/script.h"
#include "ir/graph.h"

G_BEGIN_DECLS

/* Registers torch.fx._ir (and torch.fx.graph, torch.fx.node, torch.fx.graph_module, plus a
 * stand-in torch.fx while none is registered). Called once per interpreter. */
void      sc_fx_ir_init            (FxScript *script);

/* The one Graph instance standing for graph (created on first use; it keeps a reference to
 * graph). New reference. */
FxValue   sc_fx_graph_wrap         (FxScript *script, FxGraph *graph);
/* The FxGraph of a Graph instance (borrowed), or NULL (nothing raised) for anything else. */
FxGraph  *sc_fx_graph_get          (const FxValue *v);

/* The one Node instance standing for node (it keeps node's graph alive, so it never
 * dangles, erased or not). New reference. */
FxValue   sc_fx_node_wrap          (FxScript *script, FxNode *node);
/* sc_fx_node_wrap for a node just made in the graph of graph_value (its Graph instance):
 * no wrapper of it can exist yet, and the Graph's is at hand (the tracer, per node). */
FxValue   sc_fx_node_wrap_new      (FxScript *script, const FxValue *graph_value, FxNode *node);
/* The FxNode of a Node instance (or of a raw FX_VALUE_NODE), borrowed; NULL otherwise. */
FxNode   *sc_fx_node_get           (const FxValue *v);

/* FxValue tree → script value: every FX_VALUE_NODE inside becomes its Node instance. */
FxValue   sc_fx_value_to_script    (FxScript *script, const FxValue *value);
/* Script value → FxValue tree for node args: Node instances inside tuples, lists, dicts and
 * slices become FX_VALUE_NODE references; other values are copied as they are. FALSE with
 * an exception pending (too deep). */
gboolean  sc_fx_value_from_script  (FxScript *script, const FxValue *value, FxValue *out);

/* A type annotation (type_expr) as the IR stores it: None → NULL, a str as it is, a class as
 * "module.qualname" ("int" for builtins), anything else by repr(). g_free. */
gboolean  sc_fx_type_to_str        (FxScript *script, const FxValue *type_expr, char **out);

/* torch.fx.GraphModule (borrowed), NULL before torch.fx._ir was imported. */
FxScriptClass *sc_fx_graph_module_class (FxScript *script);
/* isinstance(v, GraphModule) */
gboolean  sc_fx_is_graph_module    (FxScript *script, const FxValue *v);

/* ---- shared by fx-ir.c and fx-graph-module.c ---- */
typedef struct _ScFxState ScFxState;
ScFxState *sc_fx_state             (FxScript *script);
/* Records gm (a GraphModule instance) as an owner of graph_value's graph. */
void      sc_fx_graph_add_owner    (FxScript *script, const FxValue *graph_value, const FxValue *gm);
/* Makes the GraphModule class (fx-graph-module.c); NULL with an exception pending. */
FxScriptClass *sc_fx_graph_module_init (FxScript *script);

G_END_DECLS
