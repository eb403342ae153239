/* graph.h: FxGraph and FxNode — torch.fx's IR: a doubly-linked list of nodes in topological
 * order, each with an opcode, a target, args/kwargs as FxValue trees that refer to other
 * nodes, its users in order, and a meta dictionary. Behaviour follows torch.fx 1.13. */
#pragma once

#include <glib.h>
#include "ir/value.h"
#include "ir/names.h"

G_BEGIN_DECLS

typedef struct _FxGraph FxGraph;
typedef struct _FxGraphModule FxGraphModule;

typedef enum {
  FX_OP_PLACEHOLDER,
  FX_OP_GET_ATTR,
  FX_OP_CALL_FUNCTION,
  FX_OP_CALL_METHOD,
  FX_OP_CALL_MODULE,
  FX_OP_OUTPUT,
  FX_OP_ROOT,            /* the graph's sentinel; never seen in iteration */
} FxNodeOp;

/* An insertion-ordered set of nodes with O(1) add, remove and membership (torch.fx keeps
 * users and input nodes in dicts used as ordered sets). */
typedef struct {
  /* the members in small[] while cap is 2 (most sets), else in heap; either may hold NULL
   * holes left by removals */
  FxNode *small[2];
  FxNode **heap;
  guint len, cap;
  GHashTable *index;     /* node → position + 1 */
  guint count;
} FxNodeSet;

guint    fx_node_set_size     (const FxNodeSet *set);
gboolean fx_node_set_contains (const FxNodeSet *set, const FxNode *node);
/* Live members in order, into a new array (g_ptr_array_unref). */
GPtrArray *fx_node_set_to_array (const FxNodeSet *set);
/* Iteration: for (guint i = 0; fx_node_set_iter (set, &i, &node);) */
gboolean fx_node_set_iter     (const FxNodeSet *set, guint *pos, FxNode **node);

struct _FxNode {
  FxGraph *graph;
  FxNode *prev;
  FxNode *next;
  const char *name;      /* owned by the graph's namespace */
  FxNodeOp op;
  /* call_function: an FX_VALUE_OP (or FX_VALUE_OBJECT for callables of higher layers);
   * every other op: an FX_VALUE_STR. */
  FxValue target;
  FxValue args;          /* FX_VALUE_TUPLE */
  FxValue kwargs;        /* FX_VALUE_DICT with str keys */
  FxValue type;          /* annotation, rendered as a str (e.g. "torch.Tensor"), or None */
  FxDict *meta;          /* str → value; "stack_trace", "tensor_meta", "is_wrapped", ... */
  FxNodeSet users;
  FxNodeSet input_nodes;
  gboolean erased;
  gpointer user_data;    /* free for passes and the editor; not copied */
};

/* ---- graphs ---- */
FxGraph    *fx_graph_new            (void);
FxGraph    *fx_graph_ref            (FxGraph *graph);
void        fx_graph_unref          (FxGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxGraph, fx_graph_unref)

guint       fx_graph_n_nodes        (const FxGraph *graph);
FxNode     *fx_graph_first          (const FxGraph *graph);   /* NULL when empty */
FxNode     *fx_graph_last           (const FxGraph *graph);
/* Iteration order: for (n = fx_graph_first (g); n; n = fx_node_next (n)). Erasing the
 * current node while iterating is safe when the next one was taken first. */
FxNode     *fx_node_next            (const FxNode *node);
FxNode     *fx_node_prev            (const FxNode *node);
/* The owning GraphModule, if exactly one owns this graph (used by lint and purity checks). */
FxGraphModule *fx_graph_get_owning_module (const FxGraph *graph);
void        fx_graph_set_owning_module (FxGraph *graph, FxGraphModule *module);

/* ---- creating nodes (at the insertion point) ----
 * args: a tuple or NULL (= ()); kwargs: a dict with str keys or NULL (= {}); both are
 * copied. name: NULL to derive one from the target. type: NULL or an annotation string. */
FxNode     *fx_graph_create_node    (FxGraph *graph, FxNodeOp op, const FxValue *target,
                                     const FxValue *args, const FxValue *kwargs,
                                     const char *name, const char *type, GError **error);
/* The same, taking args and kwargs (a tuple and a dict, both built for this node alone and
 * shared with nobody: lists in them are not copied) instead of copying them. */
FxNode     *fx_graph_create_node_take (FxGraph *graph, FxNodeOp op, const FxValue *target,
                                       FxValue args, FxValue kwargs, const char *name,
                                       const char *type, GError **error);
/* default_value: NULL for none (None itself is a value: pass fx_value_none ()). */
FxNode     *fx_graph_placeholder    (FxGraph *graph, const char *name, const char *type,
                                     const FxValue *default_value);
FxNode     *fx_graph_get_attr       (FxGraph *graph, const char *qualified_name, const char *type);
FxNode     *fx_graph_call_module    (FxGraph *graph, const char *module_name,
                                     const FxValue *args, const FxValue *kwargs, const char *type);
FxNode     *fx_graph_call_method    (FxGraph *graph, const char *method_name,
                                     const FxValue *args, const FxValue *kwargs, const char *type);
FxNode     *fx_graph_call_function  (FxGraph *graph, const FxValue *function,
                                     const FxValue *args, const FxValue *kwargs, const char *type);
FxNode     *fx_graph_output         (FxGraph *graph, const FxValue *result, const char *type);

/* ---- insertion point (torch.fx: inserting_before / inserting_after) ----
 * Returns the previous insertion point, to restore with fx_graph_restore_insert_point(). */
typedef struct {
  FxNode *anchor;        /* NULL: the graph's end */
  gboolean after;        /* insert right after anchor (each new node right after it) */
} FxInsertPoint;

FxInsertPoint fx_graph_inserting_before (FxGraph *graph, FxNode *node);  /* NULL: graph start */
FxInsertPoint fx_graph_inserting_after  (FxGraph *graph, FxNode *node);  /* NULL: graph start */
void          fx_graph_restore_insert_point (FxGraph *graph, FxInsertPoint point);

/* ---- editing ---- */
/* Refused while the node has users, with 1.13's message. */
gboolean    fx_graph_erase_node     (FxGraph *graph, FxNode *node, GError **error);
/* Copies node (from any graph) into graph at the insertion point, mapping each node
 * reference in its args/kwargs through map_fn (a value to use instead; may be a node of
 * graph or any value). Name, type and a shallow copy of meta are kept. */
typedef FxValue (*FxNodeMapFunc) (FxNode *node, gpointer user_data);
FxNode     *fx_graph_node_copy      (FxGraph *graph, FxNode *node, FxNodeMapFunc map_fn,
                                     gpointer user_data, GError **error);
/* Copies every node of src into graph (not its output), recording old → new in val_map
 * (FxNode* → FxNode*; pre-filled entries are used instead of copies). Returns the value
 * src's output returned, mapped, or None when src has no output. */
FxValue     fx_graph_graph_copy     (FxGraph *graph, FxGraph *src, GHashTable *val_map,
                                     FxNode **src_output, GError **error);
/* A deep copy: same names, same output. */
FxGraph    *fx_graph_copy           (FxGraph *graph, GError **error);

/* Node.prepend / append: moves x right before / after node (both in one graph). */
void        fx_node_prepend         (FxNode *node, FxNode *x);
void        fx_node_append          (FxNode *node, FxNode *x);
/* Replace args / kwargs (re-links users as torch.fx does: a user moves to the end of its
 * inputs' user lists). Values are copied. */
void        fx_node_set_args        (FxNode *node, const FxValue *args);
void        fx_node_set_kwargs      (FxNode *node, const FxValue *kwargs);
gboolean    fx_node_update_arg      (FxNode *node, int index, const FxValue *value, GError **error);
void        fx_node_update_kwarg    (FxNode *node, const char *key, const FxValue *value);
/* Every use of node becomes a use of replacement, for users where keep_user (may be NULL)
 * returns TRUE; returns the users changed, in order (g_ptr_array_unref). */
typedef gboolean (*FxNodeFilterFunc) (FxNode *user, gpointer user_data);
GPtrArray  *fx_node_replace_all_uses_with (FxNode *node, FxNode *replacement,
                                           FxNodeFilterFunc delete_user_cb, gpointer user_data);
void        fx_node_replace_input_with (FxNode *node, FxNode *old_input, FxNode *new_input);
/* all_input_nodes: inputs in order of first appearance (args, then kwargs). */
GPtrArray  *fx_node_all_input_nodes (const FxNode *node);
/* placeholder/output, impure functions (ops flagged FX_OP_FLAG_IMPURE), modules marked impure. */
gboolean    fx_node_is_impure       (const FxNode *node);

/* Maps every node reference inside value through fn, rebuilding the containers (map_arg). */
FxValue     fx_value_map_nodes      (const FxValue *value, FxNodeMapFunc fn, gpointer user_data);
/* Calls fn on each node reference inside value, in order. */
void        fx_value_foreach_node   (const FxValue *value, void (*fn) (FxNode *node, gpointer data),
                                     gpointer data);

/* ---- queries ---- */
const char *fx_node_op_name         (FxNodeOp op);    /* "call_function", ... */
gboolean    fx_node_op_from_name    (const char *name, FxNodeOp *op);
/* find_nodes: nodes of op whose target equals target (NULL: any), in order. */
GPtrArray  *fx_graph_find_nodes     (FxGraph *graph, FxNodeOp op, const FxValue *target);
FxNode     *fx_graph_find_node_by_name (FxGraph *graph, const char *name);
/* Target as torch.fx prints it in print(graph): "operator.add", "torch.relu",
 * "builtins.len", or the string target. */
char       *fx_node_pretty_target   (const FxNode *node);
/* The name a callable target was defined with (__name__): "add", "relu", "len". */
const char *fx_target_function_name (const FxValue *target);
/* _get_qualified_name: "torch.relu", "operator.add", "len", "math.sqrt". */
const char *fx_target_qualified_name (const FxValue *target);

/* ---- checks and passes ---- */
/* Graph.lint(): ownership, topological order, unique names, and with an owning module,
 * that get_attr/call_module targets exist. */
gboolean    fx_graph_lint           (FxGraph *graph, GError **error);
/* Removes unused pure nodes, last to first; returns whether anything changed. */
gboolean    fx_graph_eliminate_dead_code (FxGraph *graph, GError **error);

/* ---- printing ---- */
/* Node.format_node(): "%add : [#users=1] = call_function[target=operator.add](args = ...)" */
char       *fx_node_format          (const FxNode *node);
/* str(graph): "graph(x):\n    %x : ..." */
char       *fx_graph_to_string      (FxGraph *graph);
/* print_tabular(): tabulate's "simple" table of opcode, name, target, args, kwargs. */
char       *fx_graph_tabular        (FxGraph *graph);
/* _format_arg: how print(graph) renders args: (%x, 1), {dim: -1}, [%a, %b] */
void        fx_format_arg           (const FxValue *value, GString *out);
/* Python's str() of a call_function target, as print_tabular shows it:
 * "<built-in function add>", "<built-in method relu of type object at 0x...>". */
char       *fx_target_python_str    (const FxValue *target);

/* Name and node helpers used by value.c's repr of node references. */
const char *fx_node_get_name        (const FxNode *node);

G_END_DECLS
