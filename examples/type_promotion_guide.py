# The TF-NumPy type promotion guide's code, run on lattensor.
#
# Source: the TensorFlow guide "TF-NumPy Type Promotion" (Apache License 2.0,
# copyright 2023 The TensorFlow Authors). Each `# %%` cell is one notebook
# cell of the guide, verbatim except for the imports (`import lattensor as tf`,
# `import lattensor.experimental.numpy as tnp`) and the notebook-only
# `!pip install` cell. As in a notebook, a cell's last expression is shown:
# run it with `python examples/run_cells.py examples/type_promotion_guide.py`
# (plain `python` runs the code but shows only what it prints).
# python/tests/test_seed_guide.py checks the shown output against TF 2.21's.

# %%
#@title Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
# https://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# %%
import numpy as np
import lattensor as tf
import lattensor.experimental.numpy as tnp

print("Using TensorFlow version %s" % tf.__version__)

# %%
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

# %%
# i32 + f32 returns a f32 result in ALL mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.constant(10, dtype = tf.int32)
b = tf.constant(5.0, dtype = tf.float32)
a + b #

# %%
# This promotion is not allowed in SAFE mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
a = tf.constant(10, dtype = tf.int32)
b = tf.constant(5.0, dtype = tf.float32)
try:
 a + b
except TypeError as e:
 print(f'{type(e)}: {e}') # TypeError: explicitly specify the dtype or switch to ALL mode.

# %%
# i8 + u32 returns an i64 result in ALL mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.constant(10, dtype = tf.int8)
b = tf.constant(5, dtype = tf.uint32)
a + b

# %%
# This promotion is not allowed in SAFE mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
a = tf.constant(10, dtype = tf.int8)
b = tf.constant(5, dtype = tf.uint32)
try:
 a + b
except TypeError as e:
 print(f'{type(e)}: {e}') # TypeError: explicitly specify the dtype or switch to ALL mode.

# %%
# The first input is promoted to f16 in ALL mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16) #

# %%
tf.constant(1.2) + tf.constant(3.1, tf.float16) #

# %%
tf.constant(5) #

# %%
tf.constant([5.0, 10.0, 3]) #

# %%
# A normal Tensor is created when dtype arg is specified.
tf.constant(5, tf.int32) #

# %%
tf.math.abs([100.0, 4.0]) #

# %%
# Setup
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
a = np.array(1, dtype=np.int8)
b = tf.constant(1)
c = np.array(1, dtype=np.float16)

# %%
# (a + b) + c throws an InvalidArgumentError.
try:
 tf.add(tf.add(a, b), c)
except tf.errors.InvalidArgumentError as e:
 print(f'{type(e)}: {e}') # InvalidArgumentError

# %%
# (b + a) + c returns an i32 result.
tf.add(tf.add(b, a), c) #

# %%
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = np.array(1, dtype=np.int8)
b = tf.constant(1)
c = np.array(1, dtype=np.float16)

# %%
# (a + b) + c returns a f16 result.
tf.add(tf.add(a, b), c) #

# %%
# (b + a) + c also returns a f16 result.
tf.add(tf.add(b, a), c) #

# %%
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")

# %%
np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50) #

# %%
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

# %%
np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50) #

# %%
-tf.constant(5) #

# %%
tf.constant(5, tf.int16) - tf.constant(1, tf.float32) #

# %%
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.Variable(10, tf.int32)
a.assign_add(tf.constant(5, tf.int16)) #

# %%
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.constant(10, tf.int16)
tf.constant(a, tf.float32) #

# %%
tnp.array(1) #

# %%
tnp.array(1.0) #
