# torch.fx.experimental for FX Editor's front end: the experimental passes libfx offers
# (optimization.fuse, const_fold.split_const_subgraphs), imported on demand as in 1.13.
