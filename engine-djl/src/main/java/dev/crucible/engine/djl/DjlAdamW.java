package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.DataType;
import dev.crucible.engine.spi.AdamWStep;
import dev.crucible.engine.spi.EngineException;
import java.util.List;

/**
 * AdamW over a trainer's LoRA parameters, as {@code torch.optim.AdamW} with {@code clip_grad_norm_} before it: the
 * update uses the gradients accumulated since the last step and clears them. Each step brings its own settings, as a
 * torch param group edited between steps does: the moments carry over and bias correction uses this step's betas.
 * The betas of the latest step are kept with the moments; a saved state's moments carry on only if the first update
 * after the resume uses the betas they were accumulated with, else that update starts from zero moments and count,
 * exactly as a fresh optimiser ({@link DjlOptimizerFile}). The check is made at that update, not at the load, because
 * the update's settings say the betas (a Tinker {@code optim_step} brings its own).
 * Kept apart from the autograd so the optimiser's arithmetic can be read (and its state saved,
 * {@link DjlOptimizerFile}) on its own. Not thread-safe: guarded by the owning {@link DjlLoraTrainer}'s lock.
 */
final class DjlAdamW {

    private final List<DjlLoraParam> params;
    private int steps;
    private double beta1 = Double.NaN;
    private double beta2 = Double.NaN;
    private boolean resumed;

    DjlAdamW(List<DjlLoraParam> params) {
        this.params = params;
    }

    /** The betas the moments were last updated with: NaN before any update of unknown betas. */
    double[] betas() {
        return new double[] {beta1, beta2};
    }

    /** Updates taken so far, counting those of the optimiser state training continued from. */
    int steps() {
        return steps;
    }

    /** Sets the update count and betas (NaN where unknown) of a saved optimiser state that training continues from. */
    void resume(int steps, double beta1, double beta2) {
        this.steps = steps;
        this.beta1 = beta1;
        this.beta2 = beta2;
        this.resumed = true;
    }

    /** After a resume, forgets moments accumulated under other betas than this first update's (unknown ones carry). */
    private void dropMomentsOfOtherBetas(double beta1, double beta2) {
        boolean other = !Double.isNaN(this.beta1) && this.beta1 != beta1
                || !Double.isNaN(this.beta2) && this.beta2 != beta2;
        if (resumed && other) {
            for (DjlLoraParam p : params) {
                p.m.muli(0);
                p.v.muli(0);
            }
            steps = 0;
        }
        resumed = false;
    }

    /**
     * One update with the accumulated gradients; returns the gradient norm before clipping. A non-finite norm drops
     * the gradients without an update, as a loss scaler does, so an overflow is never written into the adapter.
     */
    double step(AdamWStep settings) {
        double learningRate = settings.learningRate();
        double beta1 = settings.beta1();
        double beta2 = settings.beta2();
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            double sumSquares = 0;
            for (DjlLoraParam p : params) {
                if (p.grad != null) {
                    // In double: float32 squares of large gradients overflow before the norm is taken.
                    sumSquares += p.grad.toType(DataType.FLOAT64, false).square().sum().getDouble();
                }
            }
            double norm = Math.sqrt(sumSquares);
            if (!Double.isFinite(norm)) {
                for (DjlLoraParam p : params) {
                    if (p.grad != null) {
                        p.grad.close();
                        p.grad = null;
                    }
                }
                return norm;
            }
            // torch.nn.utils.clip_grad_norm_: scale by max_norm / (norm + 1e-6) when that is below 1.
            double clip = settings.clips() ? Math.min(1.0, settings.maxGradNorm() / (norm + 1e-6)) : 1.0;
            dropMomentsOfOtherBetas(beta1, beta2);
            steps++;
            this.beta1 = beta1;
            this.beta2 = beta2;
            double correction1 = 1 - Math.pow(beta1, steps);
            double correction2 = 1 - Math.pow(beta2, steps);
            for (DjlLoraParam p : params) {
                NDArray g = p.grad == null ? p.value.zerosLike() : p.grad.mul((float) clip);
                NDArray m = p.m.mul((float) beta1).add(g.mul((float) (1 - beta1)));
                NDArray v = p.v.mul((float) beta2).add(g.square().mul((float) (1 - beta2)));
                NDArray update = m.div((float) correction1)
                        .div(v.div((float) correction2).sqrt().add((float) settings.epsilon()));
                NDArray value = p.value.stopGradient().mul((float) (1 - learningRate * settings.weightDecay()))
                        .sub(update.mul((float) learningRate));
                value.setRequiresGradient(true);
                NDScope.unregister(m, v, value);
                p.m.close();
                p.v.close();
                p.value.close();
                if (p.grad != null) {
                    p.grad.close();
                    p.grad = null;
                }
                p.m = m;
                p.v = v;
                p.value = value;
            }
            return norm;
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "optimiser step failed: " + e.getMessage(),
                    e);
        }
    }
}
