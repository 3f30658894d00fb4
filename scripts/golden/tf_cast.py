import numpy as np, tensorflow as tf, json
vals=[float('nan'), float('inf'), -float('inf'), 1e10, -1e10, 3.7, -3.7, 300.5, -300.5, 70000.0, 2.5, -0.5, 4294967296.0, 2**63, -2**63-2**12, 1e20]
out={}
for src in [tf.float32, tf.float64, tf.float16, tf.bfloat16]:
  for dst in [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.bool]:
    x=tf.constant(vals, tf.float64)
    x=tf.cast(x, src)
    y=tf.cast(x, dst).numpy().tolist()
    out[f"{src.name}->{dst.name}"]=[str(v) for v in y]
# complex
c=tf.constant([1.5+2j, float('nan')+0j, 0+1j], tf.complex128)
for dst in [tf.float32, tf.int32, tf.bool, tf.uint8]:
  out[f"complex128->{dst.name}"]=[str(v) for v in tf.cast(c,dst).numpy().tolist()]
# int -> smaller int, int->float
i=tf.constant([300, -1, 2**40, -2**40, 2**62+1], tf.int64)
for dst in [tf.int8, tf.uint8, tf.int32, tf.uint32, tf.float16, tf.bfloat16, tf.float32, tf.bool]:
  out[f"int64->{dst.name}"]=[str(v) for v in tf.cast(i,dst).numpy().tolist()]
b=tf.constant([True, False])
for dst in [tf.float32, tf.int8, tf.complex64, tf.bfloat16]:
  out[f"bool->{dst.name}"]=[str(v) for v in tf.cast(b,dst).numpy().tolist()]
# double rounding probe int64 -> bf16
v=2**60+2**52+1
out["int64->bfloat16 double rounding 2^60+2^52+1"]=str(float(tf.cast(tf.constant([v],tf.int64),tf.bfloat16).numpy()[0]))
out["float64->float16 65520"]=str(tf.cast(tf.constant([65519.9, 65520.0, 1e-8]), tf.float16).numpy().tolist())
print(json.dumps(out, indent=0))
