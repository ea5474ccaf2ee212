package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardExample;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;

/**
 * Fits a reward model from labelled examples and stores it as the next version of its name. Where the examples come
 * from (a request body, a dataset, a feedback query) is the caller's business: each source builds the list.
 */
public interface FitRewardModelUseCase {

    /**
     * @param project  the project it is fitted for (a name)
     * @param name     the model's name (a name)
     * @param examples the labelled examples, in order
     */
    record Command(Caller caller, String project, String name, List<RewardExample> examples) {

        public Command {
            examples = List.copyOf(examples);
        }
    }

    /**
     * The stored model with its held-out metrics; refused (400, naming the field) for a bad name, too few examples or
     * too few of a label, text past its bound; 413 for too many examples; 429 when the key or the server already runs
     * its most fits.
     */
    Outcome<RewardModel> fit(Command command);
}
