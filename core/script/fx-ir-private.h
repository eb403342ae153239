/* fx-ir-private.h: what fx-ir.c (wrappers, conversions, the modules), fx-graph.c (Graph),
 * fx-node.c (Node) and fx-graph-module.c share. Private to those files. */
#pragma once

#include "script/fx-ir.h"
#include "script/internal.h"
#include "ir/module.h"

G_BEGIN_DECLS

#define FX_ARGS FxScript *S, const FxValue *args, int n_args, FxDict *kwargs, FxValue *result, \
  gpointer data

struct _ScFxState {
  FxScriptClass *graph_cls, *node_cls, *node_list_cls, *insert_cls, *pycode_cls, *gm_cls;
  GHashTable *graphs;            /* FxGraph* → GraphPayload* (weak) */
  GHashTable *nodes;             /* FxNode* → NodePayload* (weak) */
  GHashTable *orphans;           /* NodePayload* whose graph has no wrapper to hold them */
  FxDict *type_objects;          /* annotation text → the type object it was made from */
};

typedef struct {
  ScFxState *st;                 /* rc box reference */
  FxGraph *graph;                /* created on first use */
  ScInstance *inst;              /* weak: the wrapper owning this payload */
  FxModule *owner;               /* the owning GraphModule's mirror; its impl is the instance */
  int n_owners;
  /* ScInstance* (strong), one per node: every Node wrapper of the graph, erased nodes' too,
   * so that a Node and the attributes a script sets on it last as long as its Graph, as
   * torch.fx's Node objects do (an array: a node gets one wrapper, added once and only
   * walked when the graph wrapper goes). Node wrappers refer to the FxGraph, not to this
   * wrapper. */
  GPtrArray *node_wrappers;
} GraphPayload;

typedef struct {
  ScFxState *st;
  FxNode *node;                  /* its graph is referenced */
  ScInstance *inst;
  gboolean held;                 /* in its graph wrapper's node_wrappers, else an orphan */
} NodePayload;

typedef struct {
  FxGraph *graph;                /* referenced */
  FxInsertPoint saved;
  gboolean restored;
  gboolean reversed;             /* _node_list: reversed order */
} GraphRefPayload;               /* _InsertPoint and _node_list */

/* payloads of the classes (fx-ir.c) */
gpointer  fxir_graph_payload_new  (FxScript *S, FxScriptClass *cls, gpointer class_data);
void      fxir_graph_payload_free (gpointer data);
gpointer  fxir_node_payload_new   (FxScript *S, FxScriptClass *cls, gpointer class_data);
void      fxir_node_payload_free  (gpointer data);
gpointer  fxir_ref_payload_new    (FxScript *S, FxScriptClass *cls, gpointer class_data);
void      fxir_ref_payload_free   (gpointer data);
/* The payload of v when its payload class was made with payload_new, else NULL. */
gpointer  fxir_payload_of         (const FxValue *v,
                                   gpointer (*payload_new) (FxScript *, FxScriptClass *, gpointer));
/* A Graph instance's payload, its FxGraph created on first use; NULL for anything else. */
GraphPayload *fxir_graph_payload  (const FxValue *v);
FxValue   fxir_instance_value     (ScInstance *inst);            /* new reference */
/* Node.type: the type object the annotation was made from, else its text. */
FxValue   fxir_type_value         (FxScript *S, const FxNode *n);

/* argument helpers: args[0] is self; the rest bound to names (all positional-or-keyword) */
gboolean  fxir_parse              (FxScript *S, const char *fname, const FxValue *args, int n_args,
                                   FxDict *kwargs, const char *const *names, int n_names,
                                   int n_required, const FxValue **out);
GraphPayload *fxir_graph_self     (FxScript *S, const FxValue *self, const char *fname);
FxNode   *fxir_node_self          (FxScript *S, const FxValue *self, const char *fname);
gboolean  fxir_node_arg           (FxScript *S, const char *fname, const FxValue *v,
                                   gboolean allow_none, FxNode **out);
gboolean  fxir_raise_gerror       (FxScript *S, GError *error);   /* frees error */
/* Node args (a tuple; lists become tuples) / kwargs (a dict with str keys) from script
 * values, None meaning empty. */
gboolean  fxir_node_args          (FxScript *S, const FxValue *v, FxValue *out);
gboolean  fxir_node_kwargs        (FxScript *S, const FxValue *v, FxValue *out);

/* fx-graph.c, fx-node.c: the classes */
void      fxir_graph_classes_init (FxScript *S, ScFxState *st);
void      fxir_node_class_init    (FxScript *S, ScFxState *st);

G_END_DECLS
