# torch.fx._pytree for FX Editor's front end. Code generated for a GraphModule (and the
# module.py written by to_folder) imports it as fx_pytree; the helpers it offers are only
# called by code generated for pytree-structured inputs, which libfx does not generate, so
# the module is empty for now.
