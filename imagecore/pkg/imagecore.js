// imagecore-build: source-sha256=4ae2c3e37661ff3c8ca674340f0d2f9e5ade88038352a53f4712a62246fa0f56 wasm-sha256=d0c02f71599969988049fa323c8a7431006b28b7e5bfd3fd354872ac9fe57b3c rustc=1.96.0-ac68faa20
/* @ts-self-types="./imagecore.d.ts" */

export function __wbg_reset_state () {
    __wbg_instance_id++;
    cachedFloat64ArrayMemory0 = null;
    cachedUint32ArrayMemory0 = null;
    cachedUint8ArrayMemory0 = null;
    if (typeof numBytesDecoded !== 'undefined') numBytesDecoded = 0;
    if (typeof WASM_VECTOR_LEN !== 'undefined') WASM_VECTOR_LEN = 0;
    __wbg_reinit_scheduled = false;
    wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());
    wasm = wasmInstance.exports;
    wasm.__wbindgen_start();
}

/**
 * Resizes straight-alpha RGBA8 `pixels` (`src_width`×`src_height`) to `width`×`height`: with
 * `reference`, one Lanczos3 convolution over every pixel; with `grey`, the greyscale resize
 * ([`resize::grey`]); else what `transform` does for colour.
 * @param {Uint8Array | number[]} pixels
 * @param {number} src_width
 * @param {number} src_height
 * @param {number} width
 * @param {number} height
 * @param {boolean} reference
 * @param {boolean} grey
 * @returns {Uint8Array}
 */
export function bench_resize(pixels, src_width, src_height, width, height, reference, grey) {
    const val2 = +src_width;
    const val3 = +src_height;
    const val4 = +width;
    const val5 = +height;
    const val6 = +reference;
    const val7 = +grey;
    const ptr0 = passArray8ToWasm0(pixels, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    let ret;
    __wbg_call_guard();
    ret = wasm.bench_resize(ptr0, len0, val2, val3, val4, val5, val6, val7);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v8 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    return v8;
}

/**
 * Encodes raw straight-alpha RGBA8 pixels. `format` 0 PNG, 1 WebP, 2 JPEG. The pixels arrive as
 * a buffer of their own (wasm-bindgen copies them in once), which PNG encoding normalises in place.
 * @param {Uint8Array | number[]} pixels
 * @param {number} width
 * @param {number} height
 * @param {number} format
 * @returns {Uint8Array}
 */
export function encode_rgba(pixels, width, height, format) {
    const val2 = +width;
    const val3 = +height;
    const val4 = +format;
    const ptr0 = passArray8ToWasm0(pixels, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    let ret;
    __wbg_call_guard();
    ret = wasm.encode_rgba(ptr0, len0, val2, val3, val4);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v5 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    return v5;
}

/**
 * Whether the bytes are an SVG document (for `mod.ts` to route them to the SVG module).
 * @param {Uint8Array | number[]} input
 * @returns {boolean}
 */
export function is_svg(input) {
    const ptr0 = passArray8ToWasm0(input, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    let ret;
    __wbg_call_guard();
    ret = wasm.is_svg(ptr0, len0);
    return ret !== 0;
}

/**
 * Size of the instance's linear memory in bytes (it grows, never shrinks).
 * @returns {number}
 */
export function memory_bytes() {
    let ret;
    __wbg_call_guard();
    ret = wasm.memory_bytes();
    return ret;
}

/**
 * Reads format and dimensions from the header. Returns the result header with no image.
 * @param {Uint8Array | number[]} input
 * @returns {Uint8Array}
 */
export function probe(input) {
    const ptr0 = passArray8ToWasm0(input, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    let ret;
    __wbg_call_guard();
    ret = wasm.probe(ptr0, len0);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v2 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    return v2;
}

/**
 * Decodes once and renders PNG renditions: the source at `source_width` (a PNG needing no resize
 * kept as it came when `keep_png`), then each of `widths` from its pixels (see `renditions`).
 * Returns them packed by `renditions::pack`.
 * @param {Uint8Array | number[]} input
 * @param {number} source_width
 * @param {Uint32Array | number[]} widths
 * @param {boolean} keep_png
 * @returns {Uint8Array}
 */
export function renditions(input, source_width, widths, keep_png) {
    const val3 = +source_width;
    const val4 = +keep_png;
    let ptr0, len0, ptr1, len1;
    try {
        ptr0 = passArray8ToWasm0(input, wasm.__wbindgen_malloc);
        len0 = WASM_VECTOR_LEN;
        ptr1 = passArray32ToWasm0(widths, wasm.__wbindgen_malloc);
        len1 = WASM_VECTOR_LEN;
    } catch (e) {
        if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 4, 4); }
        if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
        throw e;
    }
    let ret;
    __wbg_call_guard();
    ret = wasm.renditions(ptr0, len0, val3, ptr1, len1, val4);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v5 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    return v5;
}

/**
 * Whether an allocation failed since the last call, clearing the note. Safe to call after a
 * trap: it touches one static, no stack and no heap.
 * @returns {boolean}
 */
export function take_out_of_memory() {
    let ret;
    __wbg_call_guard();
    ret = wasm.take_out_of_memory();
    return ret !== 0;
}

/**
 * Transforms an encoded image. `width` 0 keeps the source width; `theme` 0 none, 1 light,
 * 2 dark; `format` 0 PNG, 1 WebP, 2 JPEG; `effort` (PNG) 0 fast, 1 small. Returns the result
 * header then the encoded image, written behind the header in one buffer.
 * @param {Uint8Array | number[]} input
 * @param {number} width
 * @param {boolean} greyscale
 * @param {number} theme
 * @param {number} format
 * @param {number} effort
 * @returns {Uint8Array}
 */
export function transform(input, width, greyscale, theme, format, effort) {
    const val2 = +width;
    const val3 = +greyscale;
    const val4 = +theme;
    const val5 = +format;
    const val6 = +effort;
    const ptr0 = passArray8ToWasm0(input, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    let ret;
    __wbg_call_guard();
    ret = wasm.transform(ptr0, len0, val2, val3, val4, val5, val6);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v7 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    return v7;
}

/**
 * `transform` with the same arguments, timed by stage: returns decode, resize, colour and
 * encode ms, then the encoded image's byte length. For benchmarks; the image is dropped.
 * @param {Uint8Array | number[]} input
 * @param {number} width
 * @param {boolean} greyscale
 * @param {number} theme
 * @param {number} format
 * @param {number} effort
 * @returns {Float64Array}
 */
export function transform_stages(input, width, greyscale, theme, format, effort) {
    const val2 = +width;
    const val3 = +greyscale;
    const val4 = +theme;
    const val5 = +format;
    const val6 = +effort;
    const ptr0 = passArray8ToWasm0(input, wasm.__wbindgen_malloc);
    const len0 = WASM_VECTOR_LEN;
    let ret;
    __wbg_call_guard();
    ret = wasm.transform_stages(ptr0, len0, val2, val3, val4, val5, val6);
    if (ret[3]) {
        throw takeFromExternrefTable0(ret[2]);
    }
    var v7 = getArrayF64FromWasm0(ret[0], ret[1]).slice();
    wasm.__wbindgen_free(ret[0], ret[1] * 8, 8);
    return v7;
}
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_now_6a5382b6767b6ea2: function() {
            const ret = performance.now();
            return ret;
        },
        __wbindgen_generic_0000000000000001: function(arg0, arg1) {
            // Cast intrinsic for `Ref(String) -> Externref`.
            const ret = getStringFromWasm0(arg0, arg1);
            return ret;
        },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },
    };
    return {
        __proto__: null,
        "./imagecore_bg.js": import0,
    };
}

function __wbg_call_guard() {
    if (__wbg_reinit_scheduled) {
        __wbg_reset_state();
        return;
    }
}


let __wbg_instance_id = 0;

function getArrayF64FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getFloat64ArrayMemory0().subarray(ptr / 8, ptr / 8 + len);
}

function getArrayU8FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}

let cachedFloat64ArrayMemory0 = null;
function getFloat64ArrayMemory0() {
    if (cachedFloat64ArrayMemory0 === null || cachedFloat64ArrayMemory0.byteLength === 0) {
        cachedFloat64ArrayMemory0 = new Float64Array(wasm.memory.buffer);
    }
    return cachedFloat64ArrayMemory0;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint32ArrayMemory0 = null;
function getUint32ArrayMemory0() {
    if (cachedUint32ArrayMemory0 === null || cachedUint32ArrayMemory0.byteLength === 0) {
        cachedUint32ArrayMemory0 = new Uint32Array(wasm.memory.buffer);
    }
    return cachedUint32ArrayMemory0;
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function passArray32ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 4, 4) >>> 0;
    getUint32ArrayMemory0().set(arg, ptr / 4);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passArray8ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 1, 1) >>> 0;
    getUint8ArrayMemory0().set(arg, ptr / 1);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

let __wbg_reinit_scheduled = false;

function takeFromExternrefTable0(idx) {
    const value = wasm.__wbindgen_externrefs.get(idx);
    wasm.__externref_table_dealloc(idx);
    return value;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += bytes.length;
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
        cachedTextDecoder.decode();
        numBytesDecoded = bytes.length;
    }
    return cachedTextDecoder.decode(bytes);
}

let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;
    wasmModule = module;
    cachedFloat64ArrayMemory0 = null;
    cachedUint32ArrayMemory0 = null;
    cachedUint8ArrayMemory0 = null;
    wasm.__wbindgen_start();
    return wasm;
}

async function __wbg_load(module, imports) {
    if (typeof Response === 'function' && module instanceof Response) {
        if (!module.ok) {
            throw new Error(`failed to fetch Wasm: ${module.status} ${module.statusText} fetching '${module.url}'`);
        }

        if (typeof WebAssembly.instantiateStreaming === 'function') {
            try {
                return await WebAssembly.instantiateStreaming(module, imports);
            } catch (e) {
                const validResponse = expectedResponseType(module.type);

                if (validResponse && module.headers.get('Content-Type') !== 'application/wasm') {
                    console.warn("`WebAssembly.instantiateStreaming` failed because your server does not serve Wasm with `application/wasm` MIME type. Falling back to `WebAssembly.instantiate` which is slower. Original error:\n", e);

                } else { throw e; }
            }
        }

        const bytes = await module.arrayBuffer();
        return await WebAssembly.instantiate(bytes, imports);
    } else {
        const instance = await WebAssembly.instantiate(module, imports);

        if (instance instanceof WebAssembly.Instance) {
            return { instance, module };
        } else {
            return instance;
        }
    }

    function expectedResponseType(type) {
        switch (type) {
            case 'basic': case 'cors': case 'default': return true;
        }
        return false;
    }
}

function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for `initSync()`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        __wbg_init_promise = __wbg_init_once(module_or_path);
        __wbg_init_promise.catch(() => { __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}

async function __wbg_init_once(module_or_path) {

    if (module_or_path !== undefined) {
        if (Object.getPrototypeOf(module_or_path) === Object.prototype) {
            ({module_or_path} = module_or_path)
        } else {
            console.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }

    if (module_or_path === undefined) {
        module_or_path = new URL('imagecore_bg.wasm', import.meta.url);
    }
    const imports = __wbg_get_imports();

    if (typeof module_or_path === 'string' || (typeof Request === 'function' && module_or_path instanceof Request) || (typeof URL === 'function' && module_or_path instanceof URL)) {
        module_or_path = fetch(module_or_path);
    }

    const { instance, module } = await __wbg_load(await module_or_path, imports);

    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
