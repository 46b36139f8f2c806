/**
 * Content versions: xxh64 of a file's raw bytes, as 16 lowercase hex characters.
 *
 * The hash is taken before any decoding, so a change of BOM or line endings alone is a new version (versions
 * are decided by content, never by mtime). One-shot `hash` and streaming `create` give the
 * same digest for the same bytes however they are chunked, so a streamed read of a huge file and a whole-file
 * read of the same bytes agree.
 *
 * The WebAssembly module is instantiated once per process, on first use, and shared. Its linear memory never
 * shrinks, so `hash` feeds large inputs through the streaming state in slices instead of copying them in
 * whole: the module stays at about one slice however big the files it has seen.
 *
 * Not here: how a version is combined with an adapter's revision (an open document's version), or compared.
 */
import xxhash from 'xxhash-wasm';

export interface Hasher {
  /** Digest of `bytes`: 16 lowercase hex characters. */
  hash(bytes: Uint8Array): string;
  /** A streaming digest; `digest()` equals `hash()` of everything passed to `update`. */
  create(): { update(bytes: Uint8Array): void; digest(): string };
}

const SLICE = 1 << 20;

type XXHashAPI = Awaited<ReturnType<typeof xxhash>>;

function toHex(value: bigint): string {
  return value.toString(16).padStart(16, '0');
}

function makeHasher(api: XXHashAPI): Hasher {
  const create = (): { update(bytes: Uint8Array): void; digest(): string } => {
    const state = api.create64();
    return {
      update(bytes) {
        for (let offset = 0; offset < bytes.length; offset += SLICE) {
          state.update(bytes.subarray(offset, Math.min(offset + SLICE, bytes.length)));
        }
      },
      digest: () => toHex(state.digest()),
    };
  };
  return {
    hash(bytes) {
      if (bytes.length <= SLICE) return toHex(api.h64Raw(bytes));
      const stream = create();
      stream.update(bytes);
      return stream.digest();
    },
    create,
  };
}

let loading: Promise<Hasher> | undefined;

/** The process-wide hasher; a failed instantiation is not cached, so a later call tries again. */
export function loadHasher(): Promise<Hasher> {
  loading ??= xxhash().then(makeHasher, (error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
