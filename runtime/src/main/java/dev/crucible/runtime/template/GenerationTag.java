package dev.crucible.runtime.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.tag.Tag;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TagNode;

/**
 * transformers' {@code {% generation %}…{% endgeneration %}} tag, which marks the assistant's tokens for training
 * masks: it renders its body in a scope of its own, as jinja2 renders a call block. Stateless.
 */
final class GenerationTag implements Tag {

    private static final long serialVersionUID = 1L;

    @Override
    public String getName() {
        return "generation";
    }

    @Override
    public String interpret(TagNode tagNode, JinjavaInterpreter interpreter) {
        StringBuilder out = new StringBuilder();
        try (var _ = interpreter.enterScope()) {
            for (Node child : tagNode.getChildren()) {
                out.append(child.render(interpreter).getValue());
            }
        }
        return out.toString();
    }
}
