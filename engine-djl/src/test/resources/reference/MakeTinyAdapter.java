import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyAdapter;
import java.nio.file.Path;

/**
 * Writes the random LoRA adapter the reference fixtures were computed with (see reference.py), for the model in a
 * folder: {@code java -cp <hf-format classes and Jackson> MakeTinyAdapter.java MODEL_DIR SEED OUT_DIR}.
 */
void main(String[] args) throws Exception {
    var config = ModelFolder.read(Path.of(args[0])).config();
    TinyAdapter.writeRandom(config, Path.of(args[2]), Long.parseLong(args[1]));
}
